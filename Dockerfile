# ladder in a container, for running seasons on other machines (the shards
# of deploy/k8s/season-job.yaml, or any `ladder run`):
#
#     docker build -t ladder .
#     docker run --rm -v "$PWD/reports:/ladder/reports" ladder run configs/troops.toml
#
# The build stage compiles ladder; the runtime stage is Debian slim with
# python3 (the example bots) and bubblewrap (the bot sandbox; inside a
# container it needs `--security-opt seccomp=unconfined` or a privileged
# pod to make namespaces, else use `--sandbox none` / `sandbox = "none"`).
# It runs as the unprivileged user `ladder` (uid 1000), so that a bot's
# process limit holds (the kernel does not hold root to one:
# docs/SECURITY.md); a mounted reports folder must be writable by it.

FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src ./src
COPY tests ./tests
COPY benches ./benches
RUN cargo build --release --locked --bin ladder

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 bubblewrap ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/ladder /usr/local/bin/ladder
RUN useradd --create-home --uid 1000 ladder
WORKDIR /ladder
COPY configs ./configs
COPY bots ./bots
COPY games ./games
RUN mkdir reports && chown ladder:ladder reports
USER ladder
ENTRYPOINT ["ladder"]
CMD ["--help"]
