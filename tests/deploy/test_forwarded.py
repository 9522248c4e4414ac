"""The client address behind the shipped proxy: `rummy serve` with the deploy files'
forwarding setting, behind a real nginx running deploy/nginx.conf (tests/deploy/nginx.py).
A client writing its own `X-Forwarded-For` cannot name another address and so cannot
move its rate limit; the limit is its own address's, not the proxy's."""

from __future__ import annotations

from pathlib import Path

import httpx
import limits
import pytest

from service.config import Settings
from tests.deploy.nginx import shipped_nginx
from tests.deploy.test_manifests import COMPOSE, K8S, _replicas
from tests.servers import rummy_serve

NEW_GAME = {"players": [{"name": "Ann"}, {"name": "Bob"}]}
CLIENT, OTHER_CLIENT = "127.0.0.2", "127.0.0.3"
"""Two client addresses of the loopback network (all of 127.0.0.0/8 is this machine)."""
PROXY_HERE = "127.0.0.1"
"""Where nginx connects to the service from, in this test."""


def _compose_forwarding() -> str:
    """The replicas' FORWARDED_ALLOW_IPS in docker-compose.yml."""
    trusted = {str(r["environment"]["FORWARDED_ALLOW_IPS"]) for r in _replicas().values()}
    assert len(trusted) == 1
    return trusted.pop()


def test_the_deploy_files_trust_forwarded_headers_from_the_proxy_only() -> None:
    proxy = COMPOSE["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert _compose_forwarding() == proxy
    configmap = (K8S / "configmap.yaml").read_text(encoding="utf-8")
    assert 'FORWARDED_ALLOW_IPS: "*"' not in configmap


def _client(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=address))


@pytest.mark.parametrize("appending", [False, True], ids=["shipped", "appending"])
def test_a_spoofed_forwarded_for_through_the_shipped_proxy_does_not_move_the_create_limit(
    tmp_path: Path, appending: bool
) -> None:
    """As shipped, and with a proxy that appends to the client's header (an ingress
    controller may): the service takes the rightmost address it does not trust."""
    rate = str(_replicas()["rummy-1"]["environment"].get("RUMMY_CREATE_RATE", ""))
    rate = rate or str(Settings().create_rate)
    limit = min(item.amount for item in limits.parse_many(rate))
    # The compose file's setting, with its proxy's address being this test's.
    trusted = "*" if _compose_forwarding() == "*" else PROXY_HERE
    env = {"RUMMY_STORE": "memory", "RUMMY_CREATE_RATE": rate, "FORWARDED_ALLOW_IPS": trusted}
    with (
        rummy_serve(env) as replica,
        shipped_nginx(f"127.0.0.1:{replica.port}", tmp_path, appending) as url,
        _client(url, CLIENT) as client,
    ):
        statuses = [
            client.post(
                "/games", json=NEW_GAME, headers={"X-Forwarded-For": f"203.0.113.{n % 250}"}
            ).status_code
            for n in range(limit + 10)
        ]
        with _client(url, OTHER_CLIENT) as other:
            others = other.post("/games", json=NEW_GAME, headers={"X-Forwarded-For": CLIENT})

    assert statuses[:limit] == [201] * limit
    # A sliding window may let one more through as the last one's count fades.
    assert statuses[-5:] == [429] * 5, statuses
    # Counted by the client's own address, not the proxy's, and not one it names.
    assert others.status_code == 201
