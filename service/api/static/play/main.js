// The web client's entry: the lobby at /play, a game at /play?game=<id>.

import { showProblem } from "./notice.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";

const root = document.getElementById("app");
const game = new URLSearchParams(location.search).get("game");

window.addEventListener("unhandledrejection", (event) => {
  showProblem(event.reason);
});

if (root instanceof HTMLElement) {
  if (game) showGame(root, game);
  else showLobby(root);
}
