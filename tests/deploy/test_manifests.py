"""deploy/: the Kubernetes manifests against the Kubernetes JSON schemas
(kubernetes-validate bundles them, so this runs offline), and what ties the
pieces together: selectors, names, ports, probes, and settings that the
service itself accepts. The compose file and nginx config are checked for
structure only: no Docker engine or compose runs here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml  # type: ignore[import-untyped]

from service.config import Settings, Store
from tests.deploy.dockerfile import exec_form, image_env, instructions, one

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
KUBERNETES_VERSIONS = ["1.30.0", kubernetes_validate.utils.latest_version()]
TEST_TOKEN = "admin-token-for-the-manifest-tests"


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


MANIFESTS = sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")
RESOURCES = {
    (doc["kind"], doc["metadata"]["name"]): doc for path in MANIFESTS for doc in _documents(path)
}


def _resource(kind: str) -> dict[str, Any]:
    found = [doc for (found_kind, _), doc in RESOURCES.items() if found_kind == kind]
    assert len(found) == 1, f"one {kind}"
    return found[0]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=lambda path: path.name)
def test_manifest_matches_the_kubernetes_schema(path: Path, version: str) -> None:
    for document in _documents(path):
        # strict: unknown fields (a typo) fail too; a kind without a schema raises.
        kubernetes_validate.validate(document, version, strict=True)


def test_the_validator_would_catch_mistakes() -> None:
    deployment = yaml.safe_load((K8S / "deployment.yaml").read_text(encoding="utf-8"))
    deployment["spec"]["replica"] = 3  # a typo
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[0], strict=True)
    deployment = yaml.safe_load((K8S / "deployment.yaml").read_text(encoding="utf-8"))
    deployment["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "8000"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[0], strict=True)


def test_every_kind_the_issue_asks_for_is_there() -> None:
    kinds = {kind for kind, _ in RESOURCES}
    assert kinds >= {
        "Deployment",
        "Service",
        "ConfigMap",
        "Secret",
        "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
    }


def test_images_are_tagged_with_the_packages_version() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    [container] = _resource("Deployment")["spec"]["template"]["spec"]["containers"]
    assert container["image"] == f"registry.example.com/straight-rummy:{version}"
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    assert [image["newTag"] for image in kustomization["images"]] == [version]
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    tags = re.findall(r"straight-rummy:(\d[\w.+-]*)", readme)
    assert tags, "the README's build commands name a version"
    assert set(tags) == {version}, "the README builds the package's version"


def test_kustomization_lists_every_manifest_but_the_secret() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    listed = set(kustomization["resources"])
    assert listed == {path.name for path in MANIFESTS} - {"secret.yaml"}


def _pod() -> dict[str, Any]:
    pod: dict[str, Any] = _resource("Deployment")["spec"]["template"]
    return pod


def _container() -> dict[str, Any]:
    containers = _pod()["spec"]["containers"]
    assert len(containers) == 1
    container: dict[str, Any] = containers[0]
    return container


def test_selectors_pick_the_deployments_pods() -> None:
    deployment = _resource("Deployment")
    labels = _pod()["metadata"]["labels"]
    selectors = [
        deployment["spec"]["selector"]["matchLabels"],
        _resource("Service")["spec"]["selector"],
        _resource("PodDisruptionBudget")["spec"]["selector"]["matchLabels"],
    ]
    for selector in selectors:
        assert selector.items() <= labels.items()
    target = _resource("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])


def test_several_replicas_and_room_to_lose_one() -> None:
    deployment = _resource("Deployment")
    hpa = _resource("HorizontalPodAutoscaler")["spec"]
    assert deployment["spec"]["replicas"] >= 2
    assert hpa["minReplicas"] == deployment["spec"]["replicas"]
    assert hpa["maxReplicas"] > hpa["minReplicas"]
    pdb = _resource("PodDisruptionBudget")["spec"]
    assert pdb.get("maxUnavailable") == 1 or pdb.get("minAvailable", 99) < hpa["minReplicas"]
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_probes_and_resources() -> None:
    container = _container()
    port_names = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
    assert container["startupProbe"]["httpGet"]["path"] == "/health"
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] in port_names
    requests = container["resources"]["requests"]
    assert {"cpu", "memory"} <= requests.keys(), "the HPA's utilisation needs a cpu request"
    assert "memory" in container["resources"]["limits"]
    service_port = _resource("Service")["spec"]["ports"][0]
    assert service_port["targetPort"] in port_names


def test_pod_runs_as_the_images_user_locked_down() -> None:
    pod = _pod()["spec"]
    uid = int(one(instructions(), "USER").arguments.split(":")[0])
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == uid
    container = _container()["securityContext"]
    assert container["allowPrivilegeEscalation"] is False
    assert container["readOnlyRootFilesystem"] is True
    assert container["capabilities"]["drop"] == ["ALL"]
    assert pod["automountServiceAccountToken"] is False


def _pod_environment() -> dict[str, str]:
    """What the container sees: the image's ENV, then envFrom, then env."""
    env = image_env(instructions(), {"PATH": "/usr/bin"})
    container = _container()
    for source in container["envFrom"]:
        if "configMapRef" in source:
            env.update(_resource_named("ConfigMap", source["configMapRef"]["name"])["data"])
        else:
            secret = _resource_named("Secret", source["secretRef"]["name"])
            env.update(secret["stringData"])
    env.update({item["name"]: item["value"] for item in container.get("env", [])})
    return env


def _resource_named(kind: str, name: str) -> dict[str, Any]:
    assert (kind, name) in RESOURCES, f"{kind} {name} is defined"
    return RESOURCES[(kind, name)]


def test_the_service_accepts_the_pods_settings() -> None:
    env = _pod_environment()
    settings = Settings.from_env(env)
    assert settings.store is Store.POSTGRES
    assert settings.admin_token is None, "the committed Secret leaves the admin features off"
    # ... and with real secrets filled in, as an operator would.
    filled = {**env, "RUMMY_ADMIN_TOKEN": TEST_TOKEN, "POSTGRES_PASSWORD": "x"}
    assert Settings.from_env(filled).admin_token == TEST_TOKEN
    ports = {port["containerPort"] for port in _container()["ports"]}
    assert settings.port in ports
    assert settings.host == "0.0.0.0"
    assert set(_resource("Secret")["stringData"]) == {
        "POSTGRES_PASSWORD",
        "RUMMY_ADMIN_TOKEN",
        "RUMMY_METRICS_TOKEN",
    }
    assert settings.metrics_token is None, "the committed Secret leaves /metrics public"
    assert "POSTGRES_PASSWORD" not in _resource("ConfigMap")["data"]


def test_shutdown_fits_in_the_grace_period() -> None:
    settings = Settings.from_env(_pod_environment())
    pod = _pod()["spec"]
    pause = _container()["lifecycle"]["preStop"]["exec"]["command"]
    assert pause[0] == "sleep"
    assert int(pause[1]) + settings.shutdown_timeout < pod["terminationGracePeriodSeconds"]
    assert _container()["command"] == exec_form(one(instructions(), "CMD"))


def test_readiness_answers_before_its_probe_gives_up() -> None:
    # /ready answers within RUMMY_READY_TIMEOUT whatever the store does; a probe that
    # timed out first would count a slow store as a dead pod's silence.
    settings = Settings.from_env(_pod_environment())
    probe = _container()["readinessProbe"]
    assert settings.ready_timeout < probe["timeoutSeconds"]


# --- docker compose and nginx: structure only --------------------------------------

COMPOSE = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))


def _substitute(value: str, variables: dict[str, str]) -> str:
    """Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}`."""

    def one_variable(match: re.Match[str]) -> str:
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if variables.get(name):
            return variables[name]
        if operator == ":?":
            raise AssertionError(f"compose would stop: {rest}")
        return rest or ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one_variable, value)


def _replicas() -> dict[str, dict[str, Any]]:
    return {name: service for name, service in COMPOSE["services"].items() if "build" in service}


def test_compose_runs_postgres_two_replicas_and_a_proxy() -> None:
    services = COMPOSE["services"]
    replicas = _replicas()
    assert len(replicas) == 2
    assert "healthcheck" in services["postgres"]
    assert services["postgres"]["image"].split(":")[1][0].isdigit(), "postgres pinned"
    proxy = services["proxy"]
    assert re.fullmatch(r"nginx:\d+\.\d+\.\d+(-\w+)?", proxy["image"])
    assert set(proxy["depends_on"]) == set(replicas)
    for service in replicas.values():
        assert service["build"]["context"] == ".."
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).exists()
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "ports" not in service, "replicas are reached through the proxy only"


def test_compose_replicas_get_settings_the_service_accepts() -> None:
    dotenv = {"POSTGRES_PASSWORD": "pw", "RUMMY_ADMIN_TOKEN": TEST_TOKEN}
    for service in _replicas().values():
        env = image_env(instructions(), {"PATH": "/usr/bin"})
        env.update(
            {
                name: _substitute(str(value), dotenv)
                for name, value in service["environment"].items()
            }
        )
        settings = Settings.from_env(env)
        assert settings.store is Store.POSTGRES
        assert settings.postgres_host == "postgres"
        assert settings.admin_token == TEST_TOKEN
        grace = int(service["stop_grace_period"].rstrip("s"))
        assert settings.shutdown_timeout < grace
    with pytest.raises(AssertionError, match="POSTGRES_PASSWORD"):
        _substitute(str(_replicas()["rummy-1"]["environment"]["POSTGRES_PASSWORD"]), {})


def test_nginx_sends_to_both_replicas_and_streams_unbuffered() -> None:
    conf = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    upstream = re.search(r"upstream rummy \{(.*?)\}", conf, re.S)
    assert upstream is not None
    servers = re.findall(r"server ([\w-]+):(\d+)", upstream.group(1))
    port = int(image_env(instructions(), {})["RUMMY_PORT"])
    assert {name for name, _ in servers} == set(_replicas())
    assert {int(found) for _, found in servers} == {port}
    proxy_port = COMPOSE["services"]["proxy"]["ports"][0].rsplit(":", 1)[1]
    assert f"listen {proxy_port};" in conf
    assert "proxy_buffering off;" in conf
    limit = re.search(r"client_max_body_size (\d+)([km]);", conf)
    assert limit is not None
    body = int(_replicas()["rummy-1"]["environment"]["RUMMY_MAX_BODY_BYTES"])
    assert body <= int(limit.group(1)) * 1024 ** (1 if limit.group(2) == "k" else 2)
    assert "non_idempotent" not in conf, "a POST is never resent by the proxy"
    buffers = re.search(r"large_client_header_buffers (\d+) (\d+)k;", conf)
    assert buffers is not None
    head = int(_replicas()["rummy-1"]["environment"]["RUMMY_MAX_HEADER_BYTES"])
    assert int(buffers.group(1)) * int(buffers.group(2)) * 1024 <= head
    assert conf.count("{") == conf.count("}")


def test_env_example_names_what_compose_requires() -> None:
    example = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    required = set(
        re.findall(r"\$\{(\w+):\?", (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
    )
    assert required
    for name in required:
        assert re.search(rf"^{name}=", example, re.M), name
