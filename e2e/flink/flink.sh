#!/usr/bin/env bash
# Provision and run a REAL Apache Flink standalone session cluster for tests
# (1 JobManager + 2 TaskManagers x 2 slots, everything on 127.0.0.1) and keep
# the GatewayMeter test job running on it.
#
#   bash e2e/flink/flink.sh up     [--version V] [--rate N] [--hot-share X] [--rest-port P] [--scheduler adaptive|default]
#                                  [--prometheus|--no-prometheus]   (Flink's PrometheusReporter on every process,
#                                  127.0.0.1 only; without either flag, as the last run of this version had it)
#   bash e2e/flink/flink.sh down   [--version V]
#   bash e2e/flink/flink.sh status [--version V]
#   bash e2e/flink/flink.sh record [--version V]   (REST fixtures -> e2e/flink/recorded/<V>/)
#   bash e2e/flink/flink.sh build  [--version V]   (compile job/ if changed; prints the jar path)
#   bash e2e/flink/flink.sh kill-tm --tm ID [--version V]  (kill -9 one TaskManager process; `up` restores it)
#
# Everything lives in <repo>/.cache/flink/<V>/ (see e2e/flink/README.md).
# `up` prints the REST URL on stdout; progress goes to stderr.
set -euo pipefail
set -o errtrace

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd -P)"

DEFAULT_VERSION="2.3.0"
JOB_NAME="gatewaymeter-test"
JOB_CLASS="dev.flinkops.testjob.GatewayMeterJob"
JOB_SRC="$SCRIPT_DIR/job/src/main/java"
REPORTER_SRC="$SCRIPT_DIR/prometheus-reporter/src/main"
START_TS=$(date +%s)

# ---------------------------------------------------------------- helpers ---
log() { printf '[flink.sh +%ss] %s\n' "$(($(date +%s) - START_TS))" "$*" >&2; }
warn() { printf '[flink.sh] WARNING: %s\n' "$*" >&2; }

# One clear error line (plus, during `up`, the tail of the JobManager log).
# Inside a subshell ($(...)) it exits 86 so that the callers exit quietly.
die() {
  trap - ERR
  printf 'flink.sh: ERROR: %s\n' "$*" >&2
  if [[ "${SHOW_JM_LOG:-0}" == 1 && -d "${RUN_DIR:-}/log" ]]; then
    local jmlog
    jmlog=$(ls -1t "$RUN_DIR"/log/*standalonesession*.log 2>/dev/null | head -n 1 || true)
    if [[ -n "$jmlog" ]]; then
      printf -- '--- last lines of %s ---\n' "$jmlog" >&2
      tail -n 25 "$jmlog" >&2 || true
    fi
  fi
  if [[ "$BASHPID" != "$$" ]]; then exit 86; fi
  exit 1
}
on_err() {
  local rc="$1" line="$2" cmd="$3"
  if [[ "$rc" == 86 ]]; then
    trap - ERR
    if [[ "$BASHPID" != "$$" ]]; then exit 86; fi
    exit 1
  fi
  die "command failed (line $line, exit $rc): $cmd"
}
trap 'on_err "$?" "$LINENO" "$BASH_COMMAND"' ERR

usage() {
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# JSON helper: json_get '<python expr on d>' < file-or-stdin  (prints '' on None)
json_get() {
  python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    sys.exit(3)
v = eval(sys.argv[1], {"d": d})
print("" if v is None else (json.dumps(v) if isinstance(v, (dict, list)) else v))
' "$1"
}

# curl wrappers (REST on loopback only)
rest_get() { curl -fsS --max-time 10 "$REST_URL$1"; }

# ------------------------------------------------------------------- args ---
CMD="${1:-}"
[[ -n "$CMD" ]] || usage
shift || true
VERSION="$DEFAULT_VERSION"
TM_ID=""
RATE="2000"
HOT_SHARE="0.4"
REST_PORT_WANTED=""
SCHEDULER="adaptive"
PROMETHEUS=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --version) VERSION="${2:?--version needs a value}"; shift 2 ;;
    --version=*) VERSION="${1#*=}"; shift ;;
    --rate) RATE="${2:?--rate needs a value}"; shift 2 ;;
    --hot-share) HOT_SHARE="${2:?--hot-share needs a value}"; shift 2 ;;
    --tm) TM_ID="${2:?--tm needs a TaskManager id}"; shift 2 ;;
    --rest-port) REST_PORT_WANTED="${2:?--rest-port needs a value}"; shift 2 ;;
    --scheduler) SCHEDULER="${2:?--scheduler needs a value}"; shift 2 ;;
    --scheduler=*) SCHEDULER="${1#*=}"; shift ;;
    --prometheus) PROMETHEUS=1; shift ;;
    --no-prometheus) PROMETHEUS=0; shift ;;
    -h|--help) usage ;;
    *) echo "flink.sh: ERROR: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bad version '$VERSION' (expected e.g. 2.3.0)"
# adaptive: rescales in place through PUT /jobs/:id/resource-requirements; default: Flink's default scheduler
# (a rescale then goes through a savepoint)
[[ "$SCHEDULER" == adaptive || "$SCHEDULER" == default ]] || die "bad scheduler '$SCHEDULER' (expected adaptive or default)"

VDIR="$ROOT/.cache/flink/$VERSION"
PY_DIR="$VDIR/py"
FLINK_HOME_DIR="$PY_DIR/pyflink"
RUN_DIR="$VDIR/run"
CLUSTER_JSON="$VDIR/cluster.json"
CKPT_DIR="$VDIR/checkpoints"
SP_DIR="$VDIR/savepoints"
JOB_BUILD_DIR="$VDIR/job"
JOB_JAR="$JOB_BUILD_DIR/$JOB_NAME.jar"
SNAPSHOT="$VDIR/rest_api_v1.snapshot"
REPORTER_BUILD_DIR="$VDIR/prometheus-reporter"
REPORTER_JAR="$REPORTER_BUILD_DIR/flink-ops-loopback-prometheus-reporter.jar"
REST_URL=""

# Serialize up/down per version. fd 9 must not leak into the Flink daemons.
lock() {
  mkdir -p "$VDIR"
  exec 9>"$VDIR/.lock"
  flock -w 900 9 || die "could not lock $VDIR/.lock (another flink.sh up/down running?)"
}

# Run a Flink bin script with our runtime conf; output goes to the run log.
flink_bin() {
  local script="$1"; shift
  local plugins="$FLINK_HOME_DIR/plugins"
  [[ -d "$RUN_DIR/plugins" ]] && plugins="$RUN_DIR/plugins"
  FLINK_CONF_DIR="$RUN_DIR/conf" FLINK_HOME="$FLINK_HOME_DIR" FLINK_PLUGINS_DIR="$plugins" \
    "$FLINK_HOME_DIR/bin/$script" "$@" >>"$RUN_DIR/flink-sh.out" 2>&1 9>&-
}

# ------------------------------------------------------------- provision ---
provision() {
  if [[ -f "$PY_DIR/.complete" && -f "$FLINK_HOME_DIR/bin/jobmanager.sh" ]] \
     && compgen -G "$FLINK_HOME_DIR/lib/flink-dist-*.jar" >/dev/null; then
    chmod +x "$FLINK_HOME_DIR"/bin/*.sh "$FLINK_HOME_DIR/bin/flink" 2>/dev/null || true
    return 0
  fi
  log "installing Flink $VERSION distribution via pip into $PY_DIR (first time: ~1 min)"
  local tmp="$VDIR/py.partial" pipout="$VDIR/pip.log"
  rm -rf "$tmp"
  mkdir -p "$tmp/a" "$tmp/b"
  : >"$pipout"
  # apache-flink carries bin/ and conf/ (the python extension modules are not
  # needed). Prefer the wheel for this interpreter, else any cp311 manylinux one.
  if ! python3 -m pip install --no-deps --no-compile --target "$tmp/a" \
        "apache-flink==$VERSION" >>"$pipout" 2>&1; then
    python3 -m pip install --no-deps --no-compile --target "$tmp/a" --only-binary=:all: \
        --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp \
        "apache-flink==$VERSION" >>"$pipout" 2>&1 \
      || die "pip install apache-flink==$VERSION failed (see $pipout)"
  fi
  # apache-flink-libraries carries lib/ opt/ plugins/: a wheel for 2.x, an sdist
  # (built locally with setuptools) for 1.20.x.
  if ! python3 -m pip install --no-deps --no-compile --target "$tmp/b" \
        "apache-flink-libraries==$VERSION" >>"$pipout" 2>&1; then
    log "retrying apache-flink-libraries with --no-build-isolation"
    python3 -m pip install --no-deps --no-compile --no-build-isolation --target "$tmp/b" \
        "apache-flink-libraries==$VERSION" >>"$pipout" 2>&1 \
      || die "pip install apache-flink-libraries==$VERSION failed (see $pipout)"
  fi
  # Both packages share the top-level 'pyflink' folder: merge them.
  mkdir -p "$tmp/py"
  cp -a "$tmp/a/." "$tmp/py/"
  cp -a "$tmp/b/." "$tmp/py/"
  local fh="$tmp/py/pyflink"
  [[ -f "$fh/bin/jobmanager.sh" && -f "$fh/bin/config.sh" ]] || die "no bin/jobmanager.sh in the apache-flink $VERSION package"
  compgen -G "$fh/lib/flink-dist-*.jar" >/dev/null || die "no lib/flink-dist jar in apache-flink-libraries $VERSION"
  [[ -f "$fh/conf/config.yaml" || -f "$fh/conf/flink-conf.yaml" ]] || die "no conf/ in the apache-flink $VERSION package"
  chmod +x "$fh"/bin/*.sh "$fh/bin/flink"
  rm -rf "$PY_DIR"
  mv "$tmp/py" "$PY_DIR"
  rm -rf "$tmp"
  touch "$PY_DIR/.complete"
  log "installed $(ls "$FLINK_HOME_DIR/lib" | wc -l) jars in $FLINK_HOME_DIR/lib"
}

# REST description of this version (best effort, cached). The brief says it is
# in flink-runtime's tests jar; in practice newer releases keep it in
# flink-runtime-web/src/test/resources, whose tests jar is only published up
# to ~1.15. Both are tried; a marker avoids re-downloading on every `up`.
fetch_rest_snapshot() {
  [[ -s "$SNAPSHOT" ]] && return 0
  local marker="$VDIR/.rest_api_v1.snapshot.unavailable"
  if [[ -f "$marker" ]]; then
    log "note: no rest_api_v1.snapshot for $VERSION on Maven Central (cached; rm $marker to retry)"
    return 0
  fi
  local base="https://repo1.maven.org/maven2/org/apache/flink" art url tmpjar="$VDIR/tests.jar.part"
  local all_fetched=1
  for art in flink-runtime flink-runtime-web; do
    url="$base/$art/$VERSION/$art-$VERSION-tests.jar"
    log "looking for rest_api_v1.snapshot in $art-$VERSION-tests.jar"
    local code
    code=$(curl -sSL --retry 2 --max-time 300 -o "$tmpjar" -w '%{http_code}' "$url" 2>/dev/null || true)
    if [[ "$code" == "200" ]]; then
      if unzip -p "$tmpjar" rest_api_v1.snapshot >"$SNAPSHOT.part" 2>/dev/null && [[ -s "$SNAPSHOT.part" ]]; then
        mv "$SNAPSHOT.part" "$SNAPSHOT"
        rm -f "$tmpjar"
        log "saved $SNAPSHOT"
        return 0
      fi
    elif [[ "$code" != "404" ]]; then
      all_fetched=0   # network trouble: do not cache the negative result
    fi
  done
  rm -f "$tmpjar" "$SNAPSHOT.part"
  (( all_fetched )) && touch "$marker"
  warn "could not get rest_api_v1.snapshot for $VERSION from Maven Central (continuing without it)"
  return 0
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

java_opts_from_dist() {
  local f="$FLINK_HOME_DIR/conf/config.yaml" opts=""
  [[ -f "$f" ]] && opts=$(sed -n 's/^ *all: *\(--add-.*\)$/\1/p' "$f" | head -n 1)
  if [[ -z "$opts" && -f "$FLINK_HOME_DIR/conf/flink-conf.yaml" ]]; then
    opts=$(sed -n 's/^env\.java\.opts\.all: *\(--add-.*\)$/\1/p' "$FLINK_HOME_DIR/conf/flink-conf.yaml" | head -n 1)
  fi
  if [[ -z "$opts" ]]; then
    opts="--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"
  fi
  printf '%s' "$opts"
}

write_config() {
  local rest_port="$1" rpc_port="$2" blob_port="$3" prom_ports="${4:-}"
  local conf="$RUN_DIR/conf"
  mkdir -p "$conf" "$RUN_DIR/log" "$RUN_DIR/pid" "$RUN_DIR/tmp/io" "$RUN_DIR/tmp/web" "$RUN_DIR/tmp/profiler" \
           "$RUN_DIR/tmp/blob" "$CKPT_DIR" "$SP_DIR"
  # logging config, masters/workers from the distribution
  local f
  for f in "$FLINK_HOME_DIR"/conf/*; do
    case "$(basename "$f")" in
      config.yaml|flink-conf.yaml) ;;
      *) cp "$f" "$conf/" ;;
    esac
  done
  printf '127.0.0.1:%s\n' "$rest_port" >"$conf/masters"
  printf '127.0.0.1\n127.0.0.1\n' >"$conf/workers"
  # Flat keys in standard YAML: read by Flink 2.x (config.yaml only) and by
  # 1.19/1.20 (config.yaml preferred over the legacy flink-conf.yaml).
  # Both the 2.x key names and the 1.x ones for checkpoint/savepoint dirs are
  # written; each version ignores the keys it does not know.
  cat >"$conf/config.yaml" <<EOF
# generated by e2e/flink/flink.sh for Flink $VERSION -- do not edit
env.java.opts.all: "$(java_opts_from_dist)"
env.log.dir: "$RUN_DIR/log"
env.pid.dir: "$RUN_DIR/pid"

jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $rpc_port
jobmanager.bind-host: 127.0.0.1
jobmanager.memory.process.size: 1024m
$( [[ "$SCHEDULER" == adaptive ]] && echo "jobmanager.scheduler: adaptive" || echo "# jobmanager.scheduler: Flink's default" )
# 2.3+: the adaptive scheduler records its rescales (off at 0, Flink's default); older versions ignore the key.
web.adaptive-scheduler.rescale-history.size: 20
jobmanager.execution.failover-strategy: region

taskmanager.host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
taskmanager.rpc.port: "0"
taskmanager.data.port: 0
taskmanager.numberOfTaskSlots: 2
# TaskManagers start together with the JobManager: retry reaching it after 1 s, not 10 s
cluster.registration.error-delay: 1000
taskmanager.memory.process.size: 1280m
taskmanager.memory.managed.fraction: 0.2

rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $rest_port
# Flame graphs and the profiler (async-profiler, FLIP-375) on 2.x, off on 1.x (Flink's default): their tests see both
# answers. Threads are sampled, and a process profiled, only when asked.
$( [[ "$VERSION" == 1.* ]] && echo "rest.flamegraph.enabled: false" || echo "rest.flamegraph.enabled: true" )
$( [[ "$VERSION" == 1.* ]] && echo "rest.profiling.enabled: false" || printf 'rest.profiling.enabled: true\nrest.profiling.dir: "%s"' "$RUN_DIR/tmp/profiler" )
web.submit.enable: true
web.cancel.enable: true
web.tmpdir: "$RUN_DIR/tmp/web"
web.upload.dir: "$RUN_DIR/tmp/web/upload"

blob.server.port: "$blob_port"
blob.storage.directory: "$RUN_DIR/tmp/blob"
io.tmp.dirs: "$RUN_DIR/tmp/io"
metrics.internal.query-service.port: "0"

parallelism.default: 2

state.backend.type: hashmap
execution.checkpointing.interval: 10 s
execution.checkpointing.dir: "file://$CKPT_DIR"
execution.checkpointing.savepoint-dir: "file://$SP_DIR"
state.checkpoints.dir: "file://$CKPT_DIR"
state.savepoints.dir: "file://$SP_DIR"
execution.checkpointing.externalized-checkpoint-retention: RETAIN_ON_CANCELLATION
execution.checkpointing.num-retained: 3

restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 1000
restart-strategy.fixed-delay.delay: 5 s
EOF
  if (( PROMETHEUS )); then
    # Flink's PrometheusReporterFactory binds every interface (no host option): the same reporter bound to
    # 127.0.0.1 instead (prometheus-reporter/). All processes get the same port list; each binds the first free one.
    cat >>"$conf/config.yaml" <<EOF

metrics.reporter.prom.factory.class: org.apache.flink.metrics.prometheus.LoopbackPrometheusReporterFactory
metrics.reporter.prom.host: 127.0.0.1
metrics.reporter.prom.port: "$prom_ports"
EOF
  fi
  cat >"$RUN_DIR/ports.env" <<EOF
REST_PORT=$rest_port
RPC_PORT=$rpc_port
BLOB_PORT=$blob_port
EOF
}

# ------------------------------------------------------------ processes ---
# pids of the daemons of this run: from the pid files, plus any JVM whose
# command line points at this run's conf dir (in case a pid file got lost).
run_pids() {
  local p cmd seen=" "
  local -a cand=()
  if compgen -G "$RUN_DIR/pid/*.pid*" >/dev/null; then
    while read -r p; do
      if [[ "$p" =~ ^[0-9]+$ ]]; then cand+=("$p"); fi
    done < <(cat "$RUN_DIR"/pid/*.pid* 2>/dev/null || true)
  fi
  for p in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline" || true)
    if [[ "$cmd" == *"--configDir $RUN_DIR/conf"* ]]; then cand+=("${p#/proc/}"); fi
  done
  for p in "${cand[@]}"; do
    if [[ "$seen" == *" $p "* ]]; then continue; fi
    seen+="$p "
    # only live processes that really are ours (guards against pid reuse)
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" || true)
    if [[ "$cmd" == *"$RUN_DIR"* ]]; then echo "$p"; fi
  done
  return 0
}

jm_alive() {
  local p
  for p in $(cat "$RUN_DIR"/pid/*standalonesession*.pid 2>/dev/null || true); do
    kill -0 "$p" 2>/dev/null && return 0
  done
  return 1
}

# pids of this run's live TaskManager processes
tm_pids() {
  local p
  for p in $(run_pids); do
    if tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -qxF org.apache.flink.runtime.taskexecutor.TaskManagerRunner; then echo "$p"; fi
  done
  return 0
}

# Resource IDs of this run's live TaskManager processes, each from the log its JVM writes.
live_tm_ids() {
  local p logfile
  for p in $(tm_pids); do
    logfile=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | sed -n 's/^-Dlog\.file=//p')
    if [[ -n "$logfile" && -f "$logfile" ]]; then
      grep -o 'Starting TaskManager with ResourceID: [^ ]*' "$logfile" | tail -n 1 | sed 's/.*: //' || true
    fi
  done
  return 0
}

# 2 TaskManagers / 4 slots, and the registered ones are the live processes: a killed TaskManager stays registered
# with the ResourceManager until its heartbeats time out, after the JobManager has already failed its tasks over.
cluster_healthy() {
  cluster_ready || return 1
  local registered live
  registered=$(rest_get /taskmanagers 2>/dev/null | json_get '" ".join(sorted(t["id"] for t in d["taskmanagers"]))' 2>/dev/null) || return 1
  live=$(live_tm_ids | sort | paste -sd ' ' -)
  [[ -n "$live" && "$registered" == "$live" ]]
}

# A running JobManager that lost TaskManager processes (a test killed one): start replacements and wait until the
# cluster is healthy again. Returns 1 when that does not happen within 180 s (the caller then restarts it all).
heal_taskmanagers() {
  local missing i
  missing=$(( 2 - $(tm_pids | wc -l) ))
  if (( missing > 0 )); then
    log "starting $missing TaskManager(s) to replace lost ones (cluster at $REST_URL)"
    for ((i = 0; i < missing; i++)); do
      flink_bin taskmanager.sh start || die "bin/taskmanager.sh start failed (see $RUN_DIR/flink-sh.out)"
    done
  fi
  local deadline=$(( $(date +%s) + 180 ))
  until cluster_healthy; do
    jm_alive || return 1
    if (( $(date +%s) >= deadline )); then
      warn "cluster not back to 2 live taskmanagers / 4 slots after 180 s at $REST_URL"
      return 1
    fi
    sleep 0.5
  done
  log "cluster healthy: 2 live taskmanagers, 4 slots"
}

load_ports() {
  [[ -f "$RUN_DIR/ports.env" ]] || return 1
  # shellcheck disable=SC1091
  source "$RUN_DIR/ports.env"
  REST_URL="http://127.0.0.1:$REST_PORT"
}

# the scheduler the running cluster was configured with (adaptive or default)
running_scheduler() {
  if grep -q '^jobmanager.scheduler: adaptive' "$RUN_DIR/conf/config.yaml" 2>/dev/null; then echo adaptive; else echo default; fi
}

# overview has 2 taskmanagers and 4 slots?
cluster_ready() {
  local ov
  ov=$(rest_get /overview 2>/dev/null) || return 1
  [[ "$(json_get 'str(d.get("taskmanagers")) + "/" + str(d.get("slots-total"))' <<<"$ov" 2>/dev/null)" == "2/4" ]]
}

stop_cluster() {
  [[ -d "$RUN_DIR" ]] || return 0
  local pids
  pids=$(run_pids | tr '\n' ' ')
  if [[ -z "${pids// /}" ]]; then
    rm -f "$RUN_DIR"/pid/*.pid "$RUN_DIR"/pid/*.pid.tmp
    return 0
  fi
  log "stopping Flink $VERSION processes: $pids"
  if [[ -d "$RUN_DIR/conf" && -x "$FLINK_HOME_DIR/bin/taskmanager.sh" ]]; then
    # both stop-all scripts at once (each waits up to 10 s per daemon)
    (trap - ERR; flink_bin taskmanager.sh stop-all || true) &
    (trap - ERR; flink_bin jobmanager.sh stop-all || true) &
    wait
  fi
  # verify, then kill leftovers by pid
  local deadline=$(( $(date +%s) + 20 )) left p
  while :; do
    left=""
    for p in $pids $(run_pids); do
      kill -0 "$p" 2>/dev/null && left="$left $p"
    done
    [[ -z "$left" ]] && break
    if (( $(date +%s) >= deadline )); then
      warn "killing leftover Flink processes:$left"
      for p in $left; do kill -9 "$p" 2>/dev/null || true; done
      sleep 1
      break
    fi
    sleep 0.5
  done
  rm -f "$RUN_DIR"/pid/*.pid "$RUN_DIR"/pid/*.pid.tmp
}

start_cluster() {
  # fresh runtime dir per run (the previous one is kept as run.prev for logs)
  rm -rf "$VDIR/run.prev"
  [[ -d "$RUN_DIR" ]] && mv "$RUN_DIR" "$VDIR/run.prev"
  mkdir -p "$RUN_DIR"
  # retained checkpoints of killed jobs pile up: keep those of the last 5 jobs
  if [[ -d "$CKPT_DIR" ]]; then
    ls -1dt "$CKPT_DIR"/*/ 2>/dev/null | tail -n +6 | while read -r d; do rm -rf "$d"; done
  fi
  local ports
  # 4 ports, then 4 for the reporters: the JobManager, 2 TaskManagers and a replacement started while a killed one
  # still holds its port
  read -r -a ports <<<"$(free_ports 8)"
  # --rest-port: the JobManager comes back at the same address (a restart without HA); the others stay free picks.
  if [[ -n "$REST_PORT_WANTED" ]]; then
    local others=() q
    for q in "${ports[@]}"; do
      if [[ "$q" != "$REST_PORT_WANTED" ]]; then others+=("$q"); fi
    done
    ports=("$REST_PORT_WANTED" "${others[@]}")
  fi
  write_config "${ports[0]}" "${ports[1]}" "${ports[2]}" "$(IFS=,; echo "${ports[*]:4:4}")"
  if (( PROMETHEUS )); then write_plugins_dir; fi
  load_ports
  log "starting 1 JobManager + 2 TaskManagers (rest $REST_URL, rpc ${ports[1]}, blob ${ports[2]})"
  # The three start scripts run concurrently (each spends seconds in JVM-based
  # config parsing); flink-daemon.sh serializes its pid-file updates with flock
  # and TaskManagers retry registering until the JobManager is up.
  local starters=() p
  (trap - ERR; flink_bin jobmanager.sh start) & starters+=($!)
  (trap - ERR; flink_bin taskmanager.sh start) & starters+=($!)
  (trap - ERR; flink_bin taskmanager.sh start) & starters+=($!)
  for p in "${starters[@]}"; do
    wait "$p" || die "a bin/jobmanager.sh or bin/taskmanager.sh start failed (see $RUN_DIR/flink-sh.out)"
  done
  local deadline=$(( $(date +%s) + 180 ))
  until cluster_ready; do
    jm_alive || die "JobManager process exited during startup"
    (( $(date +%s) < deadline )) || die "cluster not ready after 180 s (want 2 taskmanagers / 4 slots at $REST_URL/overview)"
    sleep 0.5
  done
  log "cluster ready: 2 taskmanagers, 4 slots"
}

# -------------------------------------------------------------------- job ---
build_job() {
  local stamp srcs
  mapfile -t srcs < <(find "$JOB_SRC" -name '*.java' | sort)
  [[ ${#srcs[@]} -gt 0 ]] || die "no Java sources under $JOB_SRC"
  stamp=$( (echo "$VERSION"; cat "${srcs[@]}") | sha256sum | cut -d' ' -f1)
  if [[ -f "$JOB_JAR" && "$(cat "$JOB_BUILD_DIR/stamp" 2>/dev/null)" == "$stamp" ]]; then
    return 0
  fi
  log "compiling test job against Flink $VERSION lib/"
  rm -rf "$JOB_BUILD_DIR"
  mkdir -p "$JOB_BUILD_DIR/classes"
  javac -nowarn -Xlint:none --release 11 -encoding UTF-8 \
      -cp "$FLINK_HOME_DIR/lib/*:$FLINK_HOME_DIR/opt/*" \
      -d "$JOB_BUILD_DIR/classes" "${srcs[@]}" >"$JOB_BUILD_DIR/javac.log" 2>&1 \
    || { cat "$JOB_BUILD_DIR/javac.log" >&2; die "javac failed for the test job against Flink $VERSION"; }
  jar --create --file "$JOB_JAR.part" --main-class "$JOB_CLASS" -C "$JOB_BUILD_DIR/classes" . \
    || die "jar packaging failed"
  mv "$JOB_JAR.part" "$JOB_JAR"
  echo "$stamp" >"$JOB_BUILD_DIR/stamp"
}

# ------------------------------------------------------------ prometheus ---
# The loopback reporter (prometheus-reporter/), compiled against this version's reporter plugin when its sources change.
build_reporter() {
  local plugin_jar stamp srcs
  plugin_jar=$(compgen -G "$FLINK_HOME_DIR/plugins/metrics-prometheus/flink-metrics-prometheus-*.jar" | head -n 1 || true)
  [[ -n "$plugin_jar" ]] || die "no plugins/metrics-prometheus/flink-metrics-prometheus-*.jar in the Flink $VERSION distribution"
  mapfile -t srcs < <(find "$REPORTER_SRC" -type f | sort)
  stamp=$( (echo "$VERSION"; cat "${srcs[@]}") | sha256sum | cut -d' ' -f1)
  if [[ -f "$REPORTER_JAR" && "$(cat "$REPORTER_BUILD_DIR/stamp" 2>/dev/null)" == "$stamp" ]]; then
    return 0
  fi
  log "compiling the loopback PrometheusReporter against $(basename "$plugin_jar")"
  rm -rf "$REPORTER_BUILD_DIR"
  mkdir -p "$REPORTER_BUILD_DIR/classes"
  javac -nowarn -Xlint:none --release 11 -encoding UTF-8 \
      -cp "$plugin_jar:$FLINK_HOME_DIR/lib/*" \
      -d "$REPORTER_BUILD_DIR/classes" $(find "$REPORTER_SRC/java" -name '*.java' | sort) >"$REPORTER_BUILD_DIR/javac.log" 2>&1 \
    || { cat "$REPORTER_BUILD_DIR/javac.log" >&2; die "javac failed for the loopback PrometheusReporter against Flink $VERSION"; }
  cp -a "$REPORTER_SRC/resources/." "$REPORTER_BUILD_DIR/classes/"
  jar --create --file "$REPORTER_JAR.part" -C "$REPORTER_BUILD_DIR/classes" . || die "jar packaging failed (reporter)"
  mv "$REPORTER_JAR.part" "$REPORTER_JAR"
  echo "$stamp" >"$REPORTER_BUILD_DIR/stamp"
}

# This run's plugins/ (FLINK_PLUGINS_DIR): the distribution's plugins as they are, but metrics-prometheus with the
# loopback reporter beside Flink's jar (one plugin class loader, so it reaches the reporter's package).
write_plugins_dir() {
  local d
  mkdir -p "$RUN_DIR/plugins/metrics-prometheus"
  for d in "$FLINK_HOME_DIR"/plugins/*/; do
    d="${d%/}"
    [[ "$(basename "$d")" == metrics-prometheus ]] || ln -s "$d" "$RUN_DIR/plugins/$(basename "$d")"
  done
  ln -s "$FLINK_HOME_DIR"/plugins/metrics-prometheus/*.jar "$RUN_DIR/plugins/metrics-prometheus/"
  ln -s "$REPORTER_JAR" "$RUN_DIR/plugins/metrics-prometheus/"
}

# 1 if the running cluster was configured with the reporter, else 0
running_prometheus() {
  if grep -q '^metrics.reporter.prom.factory.class:' "$RUN_DIR/conf/config.yaml" 2>/dev/null; then echo 1; else echo 0; fi
}

# The reporter endpoints of the live processes, as JSON ({"targets": [...], "jobManager": ..., "taskManagers":
# {id: ...}}), each read from the log its JVM writes. Waits until the JobManager and 2 TaskManagers have one.
prometheus_endpoints() {
  local deadline=$(( $(date +%s) + 60 )) p logfile endpoint tm_id role lines
  while :; do
    lines=""
    for p in $(run_pids); do
      logfile=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | sed -n 's/^-Dlog\.file=//p')
      [[ -n "$logfile" && -f "$logfile" ]] || continue
      endpoint=$(grep -o 'Started PrometheusReporter HTTP server on [0-9.]*:[0-9]*' "$logfile" | tail -n 1 | sed 's/.* //' || true)
      [[ -n "$endpoint" ]] || continue
      if tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -qxF org.apache.flink.runtime.taskexecutor.TaskManagerRunner; then
        role=tm
        tm_id=$(grep -o 'Starting TaskManager with ResourceID: [^ ]*' "$logfile" | tail -n 1 | sed 's/.*: //' || true)
      else
        role=jm
        tm_id=""
      fi
      lines+="$role $endpoint $tm_id"$'\n'
    done
    if [[ $(grep -c '^jm ' <<<"$lines" || true) == 1 && $(grep -c '^tm .* .' <<<"$lines" || true) == 2 ]]; then break; fi
    (( $(date +%s) < deadline )) || die "the PrometheusReporter did not start on the JobManager and 2 TaskManagers within 60 s (see $RUN_DIR/log)"
    sleep 0.5
  done
  python3 -c '
import json, sys
jm, tms = None, {}
for line in sys.stdin.read().splitlines():
    parts = line.split()
    if not parts:
        continue
    if parts[0] == "jm":
        jm = parts[1]
    else:
        tms[parts[2]] = parts[1]
print(json.dumps({"targets": [jm] + [tms[k] for k in sorted(tms)], "jobManager": jm, "taskManagers": tms}))
' <<<"$lines"
}

# id of a running/starting job named $JOB_NAME (empty if none)
find_job() {
  rest_get /jobs/overview | json_get '
next((j["jid"] for j in sorted(d.get("jobs", []), key=lambda j: -j.get("start-time", 0))
      if j.get("name") == "'"$JOB_NAME"'"
      and j.get("state") in ("RUNNING", "CREATED", "INITIALIZING", "RESTARTING", "RECONCILING")), None)'
}

# id of the uploaded test jar (latest), empty if none
find_jar() {
  rest_get /jars | json_get '
next((f["id"] for f in sorted(d.get("files", []), key=lambda f: -f.get("uploaded", 0))
      if f.get("name") == "'"$JOB_NAME"'.jar"), None)'
}

upload_jar() {
  local resp fn
  resp=$(curl -fsS --max-time 60 -X POST -H "Expect:" -F "jarfile=@$JOB_JAR;type=application/x-java-archive" \
           "$REST_URL/jars/upload") || die "POST /jars/upload failed"
  fn=$(json_get 'd.get("filename")' <<<"$resp") || die "bad /jars/upload response: $resp"
  [[ -n "$fn" ]] || die "upload failed: $resp"
  local jar_id others o
  jar_id=$(basename "$fn")
  # drop older uploads of the test jar
  others=$(rest_get /jars | json_get '" ".join(f["id"] for f in d.get("files", []) if f.get("name") == "'"$JOB_NAME"'.jar" and f["id"] != "'"$jar_id"'")' || true)
  for o in $others; do curl -fsS --max-time 10 -X DELETE "$REST_URL/jars/$o" >/dev/null 2>&1 || true; done
  echo "$jar_id"
}

run_job() {
  local jar_id="$1" body resp jid
  body=$(python3 -c 'import json,sys; print(json.dumps({"entryClass": sys.argv[1], "programArgsList": ["--rate", sys.argv[2], "--hot-share", sys.argv[3]], "parallelism": 2}))' \
         "$JOB_CLASS" "$RATE" "$HOT_SHARE")
  resp=$(curl -sS --max-time 120 -X POST -H 'Content-Type: application/json' -d "$body" \
           "$REST_URL/jars/$jar_id/run") || die "POST /jars/$jar_id/run failed"
  jid=$(json_get 'd.get("jobid")' <<<"$resp" 2>/dev/null || true)
  if [[ -z "$jid" ]]; then
    # the answer carries a whole stack trace: report its innermost cause
    local why
    why=$(python3 -c '
import json, sys
try:
    text = "\n".join(json.loads(sys.stdin.read()).get("errors", []))
except Exception:
    text = ""
lines = [l.strip() for l in text.splitlines() if l.strip()]
causes = [l for l in lines if l.startswith("Caused by:")]
print((causes[-1][len("Caused by:"):].strip() if causes else (lines[0] if lines else "no details"))[:300])
' <<<"$resp" 2>/dev/null || true)
    die "job submission rejected by $REST_URL/jars/$jar_id/run: ${why:-$(head -c 300 <<<"$resp")}"
  fi
  echo "$jid"
}

# wait until the job and all its vertices are RUNNING
wait_job_running() {
  local jid="$1" deadline=$(( $(date +%s) + 180 )) st
  while :; do
    st=$(rest_get "/jobs/$jid" 2>/dev/null | json_get '
d["state"] + ("/all" if d["state"] == "RUNNING" and d.get("vertices") and all(v["status"] == "RUNNING" for v in d["vertices"]) else "")' 2>/dev/null || true)
    case "$st" in
      RUNNING/all) return 0 ;;
      FAILED|CANCELED|FINISHED)
        local ex
        ex=$(rest_get "/jobs/$jid/exceptions" 2>/dev/null | json_get '(d.get("root-exception") or "").splitlines()[0] if d.get("root-exception") else ""' 2>/dev/null || true)
        die "job $jid ended in state $st${ex:+: $ex}" ;;
    esac
    (( $(date +%s) < deadline )) || die "job $jid not fully RUNNING after 180 s (state: ${st:-unknown})"
    sleep 0.5
  done
}

write_cluster_json() {
  local jid="$1" jar_id="$2" prometheus="${3:-}"
  python3 - "$CLUSTER_JSON" "$VERSION" "$REST_URL" "$jid" "$JOB_NAME" "$jar_id" \
      "file://$CKPT_DIR" "file://$SP_DIR" "$RUN_DIR/log" "$(running_scheduler)" "$prometheus" <<'PY'
import json, os, sys
path, version, rest, jid, name, jar, ck, sp, logdir, scheduler, prometheus = sys.argv[1:]
doc = {"version": version, "restUrl": rest, "jobId": jid, "jobName": name,
       "jarId": jar or None, "checkpointDir": ck, "savepointDir": sp, "logDir": logdir,
       "scheduler": scheduler}
if prometheus:
    doc["prometheus"] = json.loads(prometheus)
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
  SHOW_JM_LOG=1
  provision
  fetch_rest_snapshot
  build_job
  # sticky: a plain `up` (a test healing the cluster after a kill, a restart at the same REST port) keeps the reporter
  [[ -n "$PROMETHEUS" ]] || PROMETHEUS=$(running_prometheus)
  if (( PROMETHEUS )); then build_reporter; fi
  if load_ports && jm_alive && cluster_healthy && [[ "$(running_scheduler)" == "$SCHEDULER" && "$(running_prometheus)" == "$PROMETHEUS" ]]; then
    log "re-using running cluster at $REST_URL"
  elif load_ports && jm_alive && [[ "$(running_scheduler)" == "$SCHEDULER" && "$(running_prometheus)" == "$PROMETHEUS" ]] \
       && rest_get /overview >/dev/null 2>&1 && heal_taskmanagers; then
    log "re-using running cluster at $REST_URL"
  else
    # leftovers of an earlier run that is not healthy (logged if any process is found)
    stop_cluster
    start_cluster
  fi
  local jid jar_id
  jid=$(find_job)
  if [[ -n "$jid" ]]; then
    log "job $JOB_NAME already submitted ($jid)"
    jar_id=$(find_jar)
    if [[ -z "$jar_id" ]]; then jar_id=$(upload_jar); fi
  else
    jar_id=$(upload_jar)
    log "uploaded $JOB_NAME.jar as $jar_id; starting job"
    jid=$(run_job "$jar_id")
  fi
  wait_job_running "$jid"
  log "job $jid RUNNING (all tasks)"
  local prometheus=""
  if (( PROMETHEUS )); then
    prometheus=$(prometheus_endpoints)
    log "PrometheusReporter endpoints: $prometheus"
  fi
  write_cluster_json "$jid" "$jar_id" "$prometheus"
  log "wrote $CLUSTER_JSON"
  echo "$REST_URL"
}

cmd_down() {
  lock
  rm -f "$CLUSTER_JSON"
  if [[ ! -d "$RUN_DIR" ]]; then
    log "nothing to stop for Flink $VERSION"
    return 0
  fi
  stop_cluster
  log "Flink $VERSION stopped"
}

cmd_status() {
  if [[ -f "$CLUSTER_JSON" ]]; then
    REST_URL=$(json_get 'd["restUrl"]' <"$CLUSTER_JSON" 2>/dev/null || true)
    if [[ -n "$REST_URL" ]] && rest_get /overview >/dev/null 2>&1; then
      cat "$CLUSTER_JSON"
      return 0
    fi
    echo "flink.sh: Flink $VERSION not reachable at ${REST_URL:-?}" >&2
    exit 1
  fi
  echo "flink.sh: Flink $VERSION is not up (no $CLUSTER_JSON)" >&2
  exit 1
}

# Compile job/ against this version's lib/ (only when the sources changed) and print
# the jar's path; its build stamp is in the same folder (stamp). Does not touch a
# running cluster (engine/bench/real-flink-throughput.ts uploads the jar itself).
cmd_build() {
  lock
  provision
  build_job
  echo "$JOB_JAR"
}

# Save real REST responses of the running cluster as JSON fixtures.
cmd_record() {
  [[ -f "$CLUSTER_JSON" ]] || die "Flink $VERSION is not up (run: flink.sh up --version $VERSION)"
  REST_URL=$(json_get 'd["restUrl"]' <"$CLUSTER_JSON")
  local jid out
  jid=$(json_get 'd["jobId"]' <"$CLUSTER_JSON")
  out="${RECORD_DIR:-$SCRIPT_DIR/recorded/$VERSION}"
  rest_get /overview >/dev/null 2>&1 || die "Flink $VERSION not reachable at $REST_URL"
  mkdir -p "$out"
  log "recording REST responses of job $jid into $out"
  python3 - "$REST_URL" "$jid" "$out" "$VERSION" <<'PY' || die "recording failed"
import json, os, sys, time, urllib.request, urllib.error

base, jid, out, version = sys.argv[1:]
METRICS = ("busyTimeMsPerSecond,backPressuredTimeMsPerSecond,idleTimeMsPerSecond,"
           "numRecordsInPerSecond,numRecordsOutPerSecond")
# A vertex's figures per subtask, in the order of SUBTASK_FIGURES (engine/sampling/subtask-figures.ts).
FIGURES = ("busyTimeMsPerSecond backPressuredTimeMsPerSecond idleTimeMsPerSecond numRecordsInPerSecond "
           "numRecordsOutPerSecond numRecordsIn numRecordsOut numBytesIn numBytesOut accumulateBusyTimeMs "
           "accumulateBackPressuredTimeMs accumulateIdleTimeMs currentInputWatermark").split()
# The TaskManagers panel's metrics, in the order of TASKMANAGER_METRICS (engine/sampling/taskmanagers.ts).
TM_METRICS = ("Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Max,Status.Flink.Memory.Managed.Used,"
              "Status.Flink.Memory.Managed.Total,Status.JVM.CPU.Load,Status.Shuffle.Netty.UsedMemorySegments,"
              "Status.Shuffle.Netty.TotalMemorySegments")


def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=15) as r:
            return r.status, json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        body = e.read().decode("utf-8", "replace")
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, {"raw": body}


def log(msg):
    print("[flink.sh record] " + msg, file=sys.stderr, flush=True)


# Wait until the job has rates, 2 completed checkpoints and real backpressure
# samples on every vertex (the first calls answer "deprecated" or even fail).
deadline = time.time() + 240
while True:
    _, job = get("/jobs/" + jid)
    verts = job.get("vertices", [])
    ok = job.get("state") == "RUNNING" and bool(verts)
    if ok:
        _, ck = get("/jobs/%s/checkpoints" % jid)
        ok = ck.get("counts", {}).get("completed", 0) >= 2
    if ok:
        _, m = get("/jobs/%s/vertices/%s/subtasks/metrics?get=numRecordsOutPerSecond&agg=sum"
                   % (jid, verts[0]["id"]))
        ok = isinstance(m, list) and len(m) > 0 and (m[0].get("sum") or 0) > 0
    if ok:
        for v in verts:
            code, bp = get("/jobs/%s/vertices/%s/backpressure" % (jid, v["id"]))
            if code != 200 or bp.get("status") != "ok" or not bp.get("subtasks"):
                ok = False
    if ok:
        break
    if time.time() > deadline:
        sys.exit("timed out waiting for metrics / checkpoints / backpressure samples")
    time.sleep(2)

files = {}


def save(name, path):
    code, body = get(path)
    if code != 200:
        log("WARNING: %s -> HTTP %s" % (path, code))
    fn = os.path.join(out, name)
    os.makedirs(os.path.dirname(fn), exist_ok=True)
    with open(fn, "w") as f:
        json.dump(body, f, indent=2)
        f.write("\n")
    files[name] = {"path": path, "status": code}


def slug(name):
    s = "".join(c if c.isalnum() else "-" for c in name.lower())
    while "--" in s:
        s = s.replace("--", "-")
    return s.strip("-")[:40]


_, job = get("/jobs/" + jid)
verts = job["vertices"]
main = verts[0]
save("config.json", "/config")
save("overview.json", "/overview")
save("jobmanager-config.json", "/jobmanager/config")
save("jobs-overview.json", "/jobs/overview")
save("taskmanagers.json", "/taskmanagers")
_, tms = get("/taskmanagers")
for i, tm in enumerate(sorted(tms.get("taskmanagers", []), key=lambda t: t["id"])):
    save("taskmanagers/%d-metrics.json" % i, "/taskmanagers/%s/metrics?get=%s" % (tm["id"], TM_METRICS))
save("job-detail.json", "/jobs/" + jid)
save("job-plan.json", "/jobs/%s/plan" % jid)
save("checkpoints.json", "/jobs/%s/checkpoints" % jid)
save("checkpoints-config.json", "/jobs/%s/checkpoints/config" % jid)
save("exceptions.json", "/jobs/%s/exceptions" % jid)
# the main vertex: the source chain, backpressured by the saturated throttle subtask
vp = "/jobs/%s/vertices/%s" % (jid, main["id"])
save("vertex-detail.json", vp)
save("subtasks-metrics.json", vp + "/subtasks/metrics?get=%s&agg=min,max,avg,sum" % METRICS)
save("subtasks-metrics-skew.json", vp + "/subtasks/metrics?get=%s&agg=min,max,avg,sum,skew" % METRICS)
save("backpressure.json", vp + "/backpressure")
save("subtask-0-metric-ids.json", vp + "/subtasks/0/metrics")
# a source vertex has no input watermarks ([]): take the first vertex that has some
wm_vertex = main
for v in verts:
    code, wm = get("/jobs/%s/vertices/%s/watermarks" % (jid, v["id"]))
    if code == 200 and wm:
        wm_vertex = v
        break
save("watermarks.json", "/jobs/%s/vertices/%s/watermarks" % (jid, wm_vertex["id"]))
# every vertex, in topological order
for i, v in enumerate(verts):
    d = "vertices/%d-%s/" % (i, slug(v["name"]))
    p = "/jobs/%s/vertices/%s" % (jid, v["id"])
    save(d + "vertex-detail.json", p)
    save(d + "subtasks-metrics.json", p + "/subtasks/metrics?get=%s&agg=min,max,avg,sum" % METRICS)
    save(d + "subtasks-metrics-skew.json", p + "/subtasks/metrics?get=%s&agg=min,max,avg,sum,skew" % METRICS)
    save(d + "backpressure.json", p + "/backpressure")
    save(d + "watermarks.json", p + "/watermarks")
    # The vertex's figures per subtask and Flink's aggregates of them from the same metric store, read while the
    # store stood still (the aggregates equal before and after): the console aggregates the figures as Flink does.
    for _ in range(30):
        _, before = get(p + "/subtasks/metrics?get=%s,numRecordsIn&agg=min,max,avg,sum,skew" % METRICS)
        code, figures = get(p + "/metrics?get=" + ",".join("%d.%s" % (k, m) for k in range(v["parallelism"]) for m in FIGURES))
        _, after = get(p + "/subtasks/metrics?get=%s,numRecordsIn&agg=min,max,avg,sum,skew" % METRICS)
        if before == after:
            break
        time.sleep(1)
    for name, body in (("subtask-figures.json", figures), ("subtask-figures-aggregated.json", after)):
        with open(os.path.join(out, d + name), "w") as f:
            json.dump(body, f, indent=2)
            f.write("\n")
        asked = "/metrics" if name == "subtask-figures.json" else "/subtasks/metrics?get=%s,numRecordsIn&agg=min,max,avg,sum,skew" % METRICS
        files[d + name] = {"path": p + asked, "status": code}
manifest = {
    "flinkVersion": version,
    "recordedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "jobId": jid,
    "mainVertex": {"id": main["id"], "name": main["name"]},
    "watermarksVertex": {"id": wm_vertex["id"], "name": wm_vertex["name"]},
    "vertices": [{"id": v["id"], "name": v["name"]} for v in verts],
    "note": "Real responses of a local Flink %s session cluster (e2e/flink/flink.sh) running "
            "the gatewaymeter-test job. 'path' is relative to the REST root." % version,
    "files": files,
}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
log("saved %d files" % len(files))
PY
}

# Kill one TaskManager process of the running cluster with SIGKILL, as a machine loss would; prints its pid.
# Its JVM is found by the log file that recorded its resource ID. `up` starts a replacement.
cmd_kill_tm() {
  [[ -n "$TM_ID" ]] || die "kill-tm needs --tm <TaskManager id> (see GET /taskmanagers)"
  [[ -f "$CLUSTER_JSON" ]] || die "Flink $VERSION is not up (run: flink.sh up --version $VERSION)"
  local logfile p pid=""
  logfile=$(grep -l -F "Starting TaskManager with ResourceID: $TM_ID" "$RUN_DIR"/log/*taskexecutor*.log 2>/dev/null | head -n 1 || true)
  [[ -n "$logfile" ]] || die "no TaskManager $TM_ID in the logs of $RUN_DIR/log"
  for p in $(tm_pids); do
    if tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -qxF -- "-Dlog.file=$logfile"; then pid=$p; fi
  done
  [[ -n "$pid" ]] || die "TaskManager $TM_ID ($logfile) has no live process"
  kill -9 "$pid"
  log "killed TaskManager $TM_ID (pid $pid) with SIGKILL"
  echo "$pid"
}

case "$CMD" in
  up) cmd_up ;;
  kill-tm) cmd_kill_tm ;;
  down) cmd_down ;;
  status) cmd_status ;;
  record) cmd_record ;;
  build) cmd_build ;;
  *) usage ;;
esac
