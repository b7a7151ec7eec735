# steerd image: the server, the load tester steer-loadtest and the game-logic client steer-director.
#
#   docker build -t steerd:local .
#   docker run --rm -p 7777:7777/udp -p 9100:9100 steerd:local
#
# Needs BuildKit (the default builder since Docker 23) for the ccache cache mount.
# deploy/README.md has the flags, the environment variables, compose and Agones.
# tests/deploy/manifests_consistent.sh checks that what this file names exists.

# ---- build: Debian 12 with the build dependencies; one script builds and installs ----
# Base images pinned to a dated Debian 12 release (the same date as the apt snapshot the project is
# tested against); deploy/image-test.sh builds this file with podman and runs the image.
FROM debian:bookworm-20250520 AS build
ARG DEBIAN_FRONTEND=noninteractive
WORKDIR /src
# The dependencies first, in a layer of their own, so a source change does not reinstall them.
COPY scripts/deps.sh scripts/deps.sh
COPY deploy/build-release.sh deploy/build-release.sh
RUN deploy/build-release.sh --deps-only
# Only what the build reads: no build/ dirs or .git from the host.
COPY CMakeLists.txt CMakePresets.json ./
COPY proto proto
COPY server server
COPY client-viewer client-viewer
COPY tests tests
COPY bench bench
COPY fuzz fuzz
COPY scenarios scenarios
COPY scripts scripts
COPY deploy deploy
# The viewer has no place in a headless server image: steerd and the load tester only.
RUN --mount=type=cache,target=/root/.cache/ccache \
    deploy/build-release.sh --targets "steerd steer-loadtest steer-director" /opt/steerd

# ---- runtime: Debian 12 slim, the shared libraries the binaries load, curl for the health check ----
FROM debian:bookworm-20250520-slim AS runtime
ARG DEBIAN_FRONTEND=noninteractive
# Runtime libraries: the packages owning steerd's DT_NEEDED libraries on Debian 12 (ldd + dpkg -S;
# tests/deploy/manifests_consistent.sh re-derives them from the built binary and compares).
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libc6 libfmt9 libgcc-s1 libprotobuf32 libspdlog1.10 libstdc++6 libxxhash0 libsodium23 libcpp-httplib0.11 libhttp-parser2.9 librecast1 \
        libtinyobjloader2rc10 libtinygltf2d libpugixml1v5 libzstd1 zlib1g \
        curl \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 steerd \
    && useradd --system --uid 10001 --gid steerd --home-dir /nonexistent --no-create-home \
        --shell /usr/sbin/nologin steerd \
    && install -d -o steerd -g steerd -m 0755 /reports
COPY --from=build /opt/steerd /opt/steerd
ENV PATH=/opt/steerd/bin:$PATH \
    STEERD_PORT=7777 \
    STEERD_METRICS_PORT=9100
WORKDIR /opt/steerd
USER 10001:10001
# Smoke test, as the runtime user: every binary finds its libraries, steerd answers --help and
# runs a shipped scenario file (the same steps .ci/run takes on a prefix outside Docker).
RUN for b in /opt/steerd/bin/*; do \
        if ldd "$b" | grep 'not found'; then echo "$b: missing shared libraries" >&2; exit 1; fi; \
    done \
    && steerd --help >/dev/null \
    && steerd --headless --ticks 30 --threads 1 --scenario scenarios/yard.txtpb >/dev/null
# 7777/udp: the game (STEERD_PORT); 9100/tcp: HTTP /metrics and /healthz (STEERD_METRICS_PORT).
EXPOSE 7777/udp 9100/tcp
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS -o /dev/null "http://127.0.0.1:${STEERD_METRICS_PORT:-9100}/healthz" || exit 1
# steerd stops cleanly on SIGTERM (and SIGINT): it finishes the tick and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/steerd/bin/steerd"]
# Ports and the scenario come from the environment (STEERD_PORT, STEERD_METRICS_PORT,
# STEERD_SCENARIO, STEERD_THREADS), so they are not repeated here: flags given on the command
# line would override the environment. Arguments after the image name replace this CMD.
CMD ["--bind", "0.0.0.0", "--status-interval", "10"]
