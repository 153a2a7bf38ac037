#!/usr/bin/env bash
# Provision and run a REAL Apache Kafka broker for tests: one KRaft node (broker + controller in one JVM) on
# 127.0.0.1, with a PLAINTEXT, a SASL_PLAINTEXT, an SSL and a SASL_SSL listener on free ports.
#
#   bash e2e/kafka/kafka.sh up     [--version V]   (default 4.4.0; 3.9.2 works too)
#   bash e2e/kafka/kafka.sh down   [--version V]
#   bash e2e/kafka/kafka.sh status [--version V]
#   --name N runs a second, separate broker of that version (run-N/, broker-N.json): tests that kill one.
#
# The broker comes from Maven Central (org.apache.kafka:kafka_2.13:V and its dependencies, `mvn
# dependency:copy-dependencies` on a small pom) and lives in <repo>/.cache/kafka/<V>/ (see e2e/kafka/README.md).
# `up` prints the PLAINTEXT bootstrap address on stdout and writes broker.json; progress goes to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd -P)"
DEFAULT_VERSION="4.4.0"
START_TS=$(date +%s)

# Test-only credentials of the SASL listeners (PLAIN from the JAAS config, SCRAM stored by `kafka-storage format`).
SASL_USER="flinkops"
SASL_PASSWORD="flinkops-secret"

log() { printf '[kafka.sh +%ss] %s\n' "$(($(date +%s) - START_TS))" "$*" >&2; }
die() {
  printf 'kafka.sh: ERROR: %s\n' "$*" >&2
  if [[ "${SHOW_LOG:-0}" == 1 && -f "${RUN_DIR:-}/server.log" ]]; then
    printf -- '--- last lines of %s ---\n' "$RUN_DIR/server.log" >&2
    tail -n 25 "$RUN_DIR/server.log" >&2 || true
  fi
  exit 1
}
usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

CMD="${1:-}"
[[ -n "$CMD" ]] || usage
shift || true
VERSION="$DEFAULT_VERSION"
NAME=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --name) NAME="${2:?--name needs a value}"; shift 2 ;;
    --version) VERSION="${2:?--version needs a value}"; shift 2 ;;
    --version=*) VERSION="${1#*=}"; shift ;;
    -h|--help) usage ;;
    *) echo "kafka.sh: ERROR: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bad version '$VERSION' (expected e.g. 4.4.0)"
MAJOR="${VERSION%%.*}"

VDIR="$ROOT/.cache/kafka/$VERSION"
LIBS="$VDIR/libs"
[[ -z "$NAME" || "$NAME" =~ ^[a-z0-9-]+$ ]] || die "bad --name '$NAME' (lower-case letters, digits, -)"
RUN_DIR="$VDIR/run${NAME:+-$NAME}"
TLS_DIR="$VDIR/tls"
BROKER_JSON="$VDIR/broker${NAME:+-$NAME}.json"

lock() {
  mkdir -p "$VDIR"
  exec 9>"$VDIR/.lock${NAME:+-$NAME}"
  flock -w 600 9 || die "could not lock $VDIR/.lock (another kafka.sh up/down running?)"
}

# ------------------------------------------------------------- provision ---
# The broker's classpath from Maven Central. Kafka 4 logs through log4j2; 3.9 still calls log4j 1 (reload4j).
provision() {
  [[ -f "$LIBS/.complete" ]] && return 0
  command -v mvn >/dev/null || die "mvn is required to fetch Kafka $VERSION from Maven Central"
  command -v java >/dev/null || die "Java 17 is required to run the Kafka broker"
  log "fetching org.apache.kafka:kafka_2.13:$VERSION and its dependencies from Maven Central"
  local logging
  if (( MAJOR >= 4 )); then
    logging='<dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.25.5</version></dependency>'
  else
    logging='<dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>'
  fi
  mkdir -p "$VDIR/mvn"
  cat >"$VDIR/mvn/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.flinkops</groupId>
  <artifactId>kafka-broker-$VERSION</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$VERSION</version></dependency>
    $logging
  </dependencies>
</project>
EOF
  rm -rf "$LIBS.partial"
  mvn -q -B -f "$VDIR/mvn/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$LIBS.partial" >"$VDIR/mvn.log" 2>&1 \
    || { tail -n 20 "$VDIR/mvn.log" >&2; die "mvn could not fetch Kafka $VERSION (see $VDIR/mvn.log)"; }
  compgen -G "$LIBS.partial/kafka_2.13-$VERSION.jar" >/dev/null || die "no kafka_2.13-$VERSION.jar among the fetched jars"
  rm -rf "$LIBS"
  mv "$LIBS.partial" "$LIBS"
  touch "$LIBS/.complete"
  log "$(ls "$LIBS"/*.jar | wc -l) jars in $LIBS"
}

# A CA and a 127.0.0.1 server certificate signed by it, for the SSL listeners (made once per cache folder).
make_tls() {
  [[ -f "$TLS_DIR/ca.pem" && -f "$TLS_DIR/server-keystore.pem" ]] && return 0
  command -v openssl >/dev/null || die "openssl is required to make the test certificates"
  log "making a test CA and a 127.0.0.1 server certificate in $TLS_DIR"
  rm -rf "$TLS_DIR.partial"
  mkdir -p "$TLS_DIR.partial"
  (
    cd "$TLS_DIR.partial"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=flink-ops test CA" \
      -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
      -extfile server.ext -out server.pem 2>/dev/null
    # Kafka's PEM key store: the PKCS#8 private key followed by the certificate chain.
    openssl pkcs8 -topk8 -nocrypt -in server.key -out server.pk8
    cat server.pk8 server.pem ca.pem >server-keystore.pem
    rm -f server.csr server.ext ca.srl
  ) || die "openssl failed to make the test certificates"
  rm -rf "$TLS_DIR"
  mv "$TLS_DIR.partial" "$TLS_DIR"
}

# ----------------------------------------------------------------- config ---
free_ports() { # prints N distinct free loopback ports
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
PY
}

write_config() {
  local plain="$1" sasl="$2" ssl="$3" sasl_ssl="$4" controller="$5"
  mkdir -p "$RUN_DIR/data"
  local listener jaas=""
  for listener in sasl_plaintext sasl_ssl; do
    jaas+="listener.name.$listener.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$SASL_USER=\"$SASL_PASSWORD\";
listener.name.$listener.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.$listener.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
"
  done
  cat >"$RUN_DIR/server.properties" <<EOF
# generated by e2e/kafka/kafka.sh for Kafka $VERSION -- do not edit
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$plain,SASL_PLAINTEXT://127.0.0.1:$sasl,SSL://127.0.0.1:$ssl,SASL_SSL://127.0.0.1:$sasl_ssl,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$plain,SASL_PLAINTEXT://127.0.0.1:$sasl,SSL://127.0.0.1:$ssl,SASL_SSL://127.0.0.1:$sasl_ssl
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT
log.dirs=$RUN_DIR/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=24

sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
$jaas
ssl.keystore.type=PEM
ssl.keystore.location=$TLS_DIR/server-keystore.pem
ssl.client.auth=none
EOF
  cat >"$RUN_DIR/ports.env" <<EOF
PLAINTEXT_PORT=$plain
SASL_PORT=$sasl
SSL_PORT=$ssl
SASL_SSL_PORT=$sasl_ssl
CONTROLLER_PORT=$controller
EOF
  if (( MAJOR >= 4 )); then
    cat >"$RUN_DIR/log4j2.properties" <<EOF
status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = $RUN_DIR/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
EOF
  else
    cat >"$RUN_DIR/log4j.properties" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$RUN_DIR/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
  fi
}

java_logging_opts() {
  if (( MAJOR >= 4 )); then
    echo "-Dlog4j2.configurationFile=$RUN_DIR/log4j2.properties"
  else
    echo "-Dlog4j.configuration=file:$RUN_DIR/log4j.properties"
  fi
}

# ------------------------------------------------------------ processes ---
broker_pid() {
  local p
  p=$(cat "$RUN_DIR/broker.pid" 2>/dev/null || true)
  [[ "$p" =~ ^[0-9]+$ ]] || return 1
  # only a live process that really is ours (guards against pid reuse)
  tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "$RUN_DIR/server.properties" || return 1
  echo "$p"
}

port_open() {
  python3 - "$1" <<'PY'
import socket, sys
s = socket.socket()
s.settimeout(1)
try:
    s.connect(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
PY
}

broker_ready() {
  [[ -f "$RUN_DIR/ports.env" ]] || return 1
  # shellcheck disable=SC1091
  source "$RUN_DIR/ports.env"
  broker_pid >/dev/null && port_open "$PLAINTEXT_PORT" && grep -q "Kafka Server started" "$RUN_DIR/server.log" 2>/dev/null
}

start_broker() {
  [[ -d "$RUN_DIR" ]] && rm -rf "$RUN_DIR.prev" && mv "$RUN_DIR" "$RUN_DIR.prev"
  mkdir -p "$RUN_DIR"
  local ports
  read -r -a ports <<<"$(free_ports 5)"
  write_config "${ports[@]}"
  local cluster_id
  # Kafka's own form (Uuid.randomUuid: base64url of 16 bytes), never starting with "-": StorageTool would read such an id
  # as an option ("argument --cluster-id/-t: expected one argument"), as Kafka's random-uuid avoids too.
  cluster_id=$(python3 -c 'import base64, uuid
while True:
    id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not id.startswith("-"):
        break
print(id)')
  log "formatting the KRaft storage (cluster $cluster_id) with SCRAM users"
  # shellcheck disable=SC2046
  java -cp "$LIBS/*" $(java_logging_opts) kafka.tools.StorageTool format -t "$cluster_id" \
      -c "$RUN_DIR/server.properties" \
      --add-scram "SCRAM-SHA-256=[name=$SASL_USER,password=$SASL_PASSWORD]" \
      --add-scram "SCRAM-SHA-512=[name=$SASL_USER,password=$SASL_PASSWORD]" \
      >"$RUN_DIR/format.out" 2>&1 || { cat "$RUN_DIR/format.out" >&2; die "kafka-storage format failed"; }
  log "starting Kafka $VERSION (PLAINTEXT 127.0.0.1:${ports[0]}, SASL ${ports[1]}, SSL ${ports[2]}, SASL_SSL ${ports[3]})"
  # shellcheck disable=SC2046
  nohup java -Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true $(java_logging_opts) \
      -cp "$LIBS/*" kafka.Kafka "$RUN_DIR/server.properties" \
      >"$RUN_DIR/stdout.log" 2>&1 </dev/null 9>&- &
  echo $! >"$RUN_DIR/broker.pid"
  local deadline=$(( $(date +%s) + 120 ))
  until broker_ready; do
    broker_pid >/dev/null || { SHOW_LOG=1; cat "$RUN_DIR/stdout.log" >&2; die "the Kafka broker exited during startup"; }
    (( $(date +%s) < deadline )) || { SHOW_LOG=1; die "Kafka not ready after 120 s"; }
    sleep 0.5
  done
}

stop_broker() {
  local p
  p=$(broker_pid) || return 0
  log "stopping Kafka $VERSION (pid $p)"
  kill -TERM "$p" 2>/dev/null || true
  local deadline=$(( $(date +%s) + 30 ))
  while kill -0 "$p" 2>/dev/null; do
    if (( $(date +%s) >= deadline )); then
      log "still running after 30 s: kill -9 $p"
      kill -KILL "$p" 2>/dev/null || true
      break
    fi
    sleep 0.3
  done
  rm -f "$RUN_DIR/broker.pid"
}

write_broker_json() {
  # shellcheck disable=SC1091
  source "$RUN_DIR/ports.env"
  python3 - "$BROKER_JSON" "$VERSION" "$PLAINTEXT_PORT" "$SASL_PORT" "$SSL_PORT" "$SASL_SSL_PORT" \
      "$TLS_DIR/ca.pem" "$SASL_USER" "$SASL_PASSWORD" "$RUN_DIR/server.log" <<'PY'
import json, os, sys
path, version, plain, sasl, ssl, sasl_ssl, ca, user, password, log = sys.argv[1:]
doc = {
    "version": version,
    "bootstrap": f"127.0.0.1:{plain}",
    "saslBootstrap": f"127.0.0.1:{sasl}",
    "sslBootstrap": f"127.0.0.1:{ssl}",
    "saslSslBootstrap": f"127.0.0.1:{sasl_ssl}",
    "caFile": ca,
    "sasl": {"username": user, "password": password, "mechanisms": ["plain", "scram-sha-256", "scram-sha-512"]},
    "log": log,
}
tmp = path + ".tmp"
with open(tmp, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
os.replace(tmp, path)
PY
}

# ----------------------------------------------------------------- commands ---
cmd_up() {
  lock
  provision
  make_tls
  if broker_ready; then
    log "re-using the running Kafka $VERSION"
  else
    stop_broker
    start_broker
  fi
  write_broker_json
  log "Kafka $VERSION ready; wrote $BROKER_JSON"
  # shellcheck disable=SC1091
  source "$RUN_DIR/ports.env"
  echo "127.0.0.1:$PLAINTEXT_PORT"
}

cmd_down() {
  lock
  rm -f "$BROKER_JSON"
  if [[ ! -d "$RUN_DIR" ]]; then
    log "nothing to stop for Kafka $VERSION"
    return 0
  fi
  stop_broker
  log "Kafka $VERSION stopped"
}

cmd_status() {
  if [[ -f "$BROKER_JSON" ]] && broker_ready; then
    cat "$BROKER_JSON"
    return 0
  fi
  echo "kafka.sh: Kafka $VERSION is not up" >&2
  exit 1
}

case "$CMD" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) usage ;;
esac
