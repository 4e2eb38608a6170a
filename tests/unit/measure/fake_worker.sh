#!/usr/bin/env bash
# A stand-in for optiml-worker that speaks the protocol without a GPU, for testing the
# driver's handling of workers that answer, crash, or hang. The candidate's "symbol" picks:
#   ok -> a measurement; crash -> exit mid-request; hang -> never answer; sticky -> fatal reply;
#   mismatch -> a verify that fails with status "mismatch".
# Each started worker appends a line to $FAKE_WORKER_LOG so tests can count restarts, and every
# request to $FAKE_REQUEST_LOG. A probe lists $FAKE_DEVICES identical GPUs (default 1).
# Several workers (VerifierPool): each remembers the device it was set up on. A passing "verify"
# answers "<image> on device <D>" as its message and appends "<D> <image>" to $FAKE_VERIFY_LOG.
# While the folder $FAKE_VERIFY_BARRIER holds a file "peers" (a count), a worker's first verify
# waits (up to 10 s) until that many workers have each started one: proof that the work was
# spread.
echo started >> "${FAKE_WORKER_LOG:-/dev/null}"
device=-1
barrier() {
  local dir=${FAKE_VERIFY_BARRIER:-}
  [[ -n $dir && -f $dir/peers && ! -f $dir/arrived/$device ]] || return 0
  mkdir -p "$dir/arrived" && touch "$dir/arrived/$device"
  for _ in $(seq 100); do
    (( $(ls "$dir/arrived" | wc -l) >= $(cat "$dir/peers") )) && return 0
    sleep 0.1
  done
}
while IFS= read -r line; do
  echo "$line" >> "${FAKE_REQUEST_LOG:-/dev/null}"
  case "$line" in
    *'"op":"probe"'*)  # $FAKE_DEVICES identical GPUs (default 1)
      list=""
      for ((i = 0; i < ${FAKE_DEVICES:-1}; i++)); do
        list+="${list:+,}{\"index\":$i,\"name\":\"Fake GPU\",\"arch\":90,\"sms\":1,\"l2_bytes\":1024,\"driver\":13000}"
      done
      echo "{\"ok\":true,\"devices\":[$list]}" ;;
    *'"op":"setup"'*)
      device=$(grep -o '"device":[0-9]*' <<<"$line" | head -n1 | cut -d: -f2)
      # A comparison library must exist when the worker is set up (the real one dlopens it).
      library=$(grep -o '"compare_library":"[^"]*"' <<<"$line" | cut -d'"' -f4)
      if [[ -n $library && ! -f $library ]]; then
        echo "{\"ok\":false,\"message\":\"no comparison library at $library\"}"
      else
        echo '{"ok":true}'
      fi ;;
    *'"op":"reference"'*)  # $FAKE_REFERENCE_FAILURE: the original kernel fails with it
      if [[ -n ${FAKE_REFERENCE_FAILURE:-} ]]; then
        echo "{\"ok\":false,\"status\":\"launch_error\",\"message\":\"$FAKE_REFERENCE_FAILURE\",\"fatal\":true}"
        exit 3
      fi
      echo '{"ok":true}' ;;
    *'"symbol":"crash"'*) exit 9 ;;
    *'"symbol":"hang"'*) sleep 30 ;;
    *'"symbol":"sticky"'*) echo '{"ok":false,"status":"launch_error","message":"CUDA_ERROR_ILLEGAL_ADDRESS","fatal":true}'; exit 3 ;;
    *'"symbol":"mismatch"'*'"op":"verify"'* | *'"op":"verify"'*'"symbol":"mismatch"'*)
      echo '{"ok":false,"status":"mismatch","message":"out: 4096 of 4096 elements differ (scripted)","verify_ms":1.0}' ;;
    *'"op":"verify"'*)
      barrier
      image=$(grep -o '"image":"[^"]*"' <<<"$line" | cut -d'"' -f4)
      echo "$device $image" >> "${FAKE_VERIFY_LOG:-/dev/null}"
      echo "{\"ok\":true,\"status\":\"ok\",\"message\":\"$image on device $device\",\"verify_ms\":1.0}" ;;
    *) echo '{"ok":true,"status":"ok","median_ms":1.5,"min_ms":1.4,"max_ms":1.7,"runs":10}' ;;
  esac
done
