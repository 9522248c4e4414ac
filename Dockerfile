# syntax=docker/dockerfile:1
# The Straight Rummy service: build a virtual environment from uv.lock, then
# copy only that environment into a slim image that runs as a non-root user.
#
#   docker build -t straight-rummy .
#   docker run -p 8000:8000 -v rummy-data:/data straight-rummy           # SQLite
#   docker run -p 8000:8000 -e RUMMY_STORE=postgres -e POSTGRES_HOST=... straight-rummy
#
# Every setting is an environment variable (service/config.py, deploy/README.md).
# Pin the base image by digest in your registry mirror if you need bit-for-bit builds:
#   docker build --build-arg PYTHON_IMAGE=python:3.11.14-slim-bookworm@sha256:... .

ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

ARG UV_VERSION=0.13.9
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN python -m pip install --no-cache-dir "uv==${UV_VERSION}"

WORKDIR /src
# The dependencies first, in a layer of their own that only uv.lock invalidates.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project
# Then the service itself, installed as a package (not editable) into the same venv.
COPY README.md ./
COPY service ./service
RUN uv sync --frozen --no-dev --no-editable


FROM ${PYTHON_IMAGE} AS runtime

LABEL org.opencontainers.image.title="straight-rummy" \
      org.opencontainers.image.description="Straight Rummy as a REST game service"

# A fixed, unprivileged uid/gid, so volumes and Kubernetes securityContext can name it.
RUN groupadd --system --gid 10001 rummy \
    && useradd --system --uid 10001 --gid rummy --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin rummy \
    && mkdir -p /data \
    && chown rummy:rummy /data

COPY --from=build /app/.venv /app/.venv

ENV PATH="/app/.venv/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    RUMMY_HOST=0.0.0.0 \
    RUMMY_PORT=8000 \
    RUMMY_WORKERS=1 \
    RUMMY_SHUTDOWN_TIMEOUT=8 \
    RUMMY_STORE=sqlite \
    RUMMY_SQLITE_PATH=/data/rummy.sqlite \
    RUMMY_LOG_LEVEL=info

WORKDIR /app
USER 10001:10001
# The SQLite default keeps its file here; on PostgreSQL the volume stays empty.
VOLUME ["/data"]
EXPOSE 8000

# Liveness only: /ready (the event store answers) is for the load balancer.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('RUMMY_PORT', '8000'), timeout=2)"]

# uvicorn stops on SIGTERM: it stops accepting, lets in-flight requests finish for
# up to RUMMY_SHUTDOWN_TIMEOUT seconds (keep it below the orchestrator's grace
# period: docker stop waits 10 s by default, Kubernetes 30 s), then exits 0.
STOPSIGNAL SIGTERM
CMD ["rummy", "serve"]
