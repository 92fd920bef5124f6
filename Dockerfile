# The image `txbench k8s job` runs: txbench on PATH, nothing else it needs in a pod (it speaks
# MySQL's and PostgreSQL's protocols itself; servers, perf and sysbench stay on their hosts).
#
#   docker build -t REGISTRY/txbench:0.1.0 . && docker push REGISTRY/txbench:0.1.0
#   txbench k8s job --image REGISTRY/txbench:0.1.0 --shards 3 --results-claim CLAIM -- tpcc …
#
# Stage 1 builds the release binary as `make build` does; stage 2 is Debian 12 with it alone.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY vendor ./vendor
COPY src ./src
COPY plans ./plans
COPY docs/server-metrics.md ./docs/server-metrics.md
RUN cargo build --release --locked --bin txbench

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 txbench \
 && useradd --uid 10001 --gid 10001 --home-dir /home/txbench --create-home txbench \
 && mkdir /results && chown 10001:10001 /results
COPY --from=build /src/target/release/txbench /usr/local/bin/txbench
# Not root: the Job's pod runs as this user (runAsUser, fsGroup), its state and the results
# store in its home, its run directories on the volume mounted at /results.
USER 10001:10001
ENV TXBENCH_HOME=/home/txbench/.txbench
WORKDIR /results
ENTRYPOINT ["txbench"]
CMD ["--help"]
