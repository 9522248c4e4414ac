// The web client's entry: the lobby at /play, a game at /play?game=<id>, its
// replay at /play?game=<id>&replay.

import { showProblem } from "./notice.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showReplay } from "./replay.js";

const root = document.getElementById("app");
const query = new URLSearchParams(location.search);
const game = query.get("game");

window.addEventListener("unhandledrejection", (event) => {
  showProblem(event.reason);
});

if (root instanceof HTMLElement) {
  if (game && query.has("replay")) showReplay(root, game);
  else if (game) showGame(root, game);
  else showLobby(root);
}
