#!/usr/bin/env bash
# A scripted optiml-worker for the evaluator tests: it answers every request without a GPU, with
# times that depend on the launch's block size, so the driver's decisions can be checked:
#   median(block) from the table below, 95% interval +-1%; the incumbent is timed the same way.
#   block 1024 claims an implausible speedup and fails re-verification.
# FAKE_TIMES="64:0.64 128:2.55 ..." overrides the table, and FAKE_TIMES_BY_N per value of the
# argument n (below). Those are the cold times; the warm ones
# (back to back, timed when the request asks) are FAKE_WARM_TIMES', by default a table whose
# fastest verified block is 512, so the condition that decides picks the winner. The median and
# interval are those of the condition the request decides by, as the real worker reports them.
# "verify" requests at an extra problem size (problem_index 1..) pass, except for the block size
# in FAKE_FAIL_EXTRA, whose reply names the grid and problem index it was sent. Every request is
# appended to $FAKE_REQUEST_LOG when that is set.
# Verification at the spec's own size (an "evaluate" without "verified":true, or a "verify" of
# problem 0, as a VerifierPool sends): the block size in FAKE_FAIL_MAIN fails it as a mismatch,
# the one in FAKE_CRASH makes the worker exit. Each such "verify" appends "<device> <block>" to
# $FAKE_VERIFY_LOG (the device the worker was set up on); each "evaluate" appends
# "<device> <block> verified|unverified" to $FAKE_TIMED_LOG.
times=${FAKE_TIMES:-"64:0.64 128:2.55 256:2.56 512:3.00 1024:0.10"}
warm_times=${FAKE_WARM_TIMES:-"64:2.30 128:2.50 256:2.40 512:1.20 1024:0.10"}
median_of() {  # block [table]
  for pair in ${2:-$times}; do
    if [[ ${pair%%:*} == "$1" ]]; then echo "${pair#*:}"; return; fi
  done
  echo 9.99
}
# The block size of the launch under key $2 ("launch": the candidate, "incumbent") in request $1.
block_of() { local rest=${1#*\"$2\":}; grep -o '"block":\[[0-9]*' <<<"$rest" | head -n1 | grep -o '[0-9]*$'; }
interval() { awk -v m="$1" 'BEGIN { printf "\"median_ms\":%s,\"ci_low_ms\":%.6f,\"ci_high_ms\":%.6f", m, m * 0.99, m * 1.01 }'; }
incumbent_interval() { awk -v m="$1" 'BEGIN { printf "\"incumbent_median_ms\":%s,\"incumbent_ci_low_ms\":%.6f,\"incumbent_ci_high_ms\":%.6f,\"incumbent_runs\":20,\"has_incumbent\":true", m, m * 0.99, m * 1.01 }'; }
number_after() { grep -o "\"$2\":\[\?[0-9]*" <<<"$1" | head -n1 | grep -o '[0-9]*$'; }
# Verification at the main size of the candidate in request $1: exits or prints a failure reply
# (status 1) when it is scripted to fail.
main_verification_fails() {
  local block
  block=$(block_of "$1" launch)
  [[ $block == "${FAKE_CRASH:-none}" ]] && exit 9
  if [[ $block == "${FAKE_FAIL_MAIN:-none}" ]]; then
    echo '{"ok":false,"status":"mismatch","message":"y[3]: got nan, expected 1 (trial 2)"}'
    return 0
  fi
  return 1
}
device=-1
while IFS= read -r line; do
  echo "$line" >> "${FAKE_REQUEST_LOG:-/dev/null}"
  case "$line" in
    *'"op":"setup"'*)
      device=$(number_after "$line" device)
      # FAKE_TIMES_BY_N="1024=64:0.5,512:0.9;1048576=64:3,512:1": the cold table of the problem
      # whose argument n has that value (a session at one of the spec's problems).
      n=$(grep -oE '"name":"n","pointer":false[^}]*"value":[0-9]+' <<<"$line" | grep -oE '[0-9]+$')
      IFS=';' read -ra by_n <<<"${FAKE_TIMES_BY_N:-}"
      for entry in "${by_n[@]}"; do
        [[ ${entry%%=*} == "$n" ]] && times=${entry#*=} && times=${times//,/ }
      done
      echo '{"ok":true}' ;;
    *'"op":"reference"'*) echo '{"ok":true}' ;;
    *'"op":"reverify"'*)
      if [[ $(block_of "$line" launch) == 1024 ]]; then
        echo '{"ok":false,"status":"mismatch","message":"y[7]: got 1, expected 2 (planted)"}'
      else
        echo '{"ok":true,"status":"ok"}'
      fi ;;
    *'"op":"verify"'*)
      if [[ $(number_after "$line" problem_index) == 0 ]]; then
        echo "$device $(block_of "$line" launch)" >> "${FAKE_VERIFY_LOG:-/dev/null}"
        main_verification_fails "$line" || echo '{"ok":true,"status":"ok","verify_ms":2.0}'
      elif [[ $(block_of "$line" launch) == "${FAKE_FAIL_EXTRA:-none}" ]]; then
        echo "{\"ok\":false,\"status\":\"unwritten\",\"message\":\"y: never written (grid $(number_after "$line" grid), problem $(number_after "$line" problem_index))\"}"
      else
        echo '{"ok":true,"status":"ok","verify_ms":2.5}'
      fi ;;
    *'"op":"evaluate"'*)
      verified=unverified
      [[ $line == *'"verified":true'* ]] && verified=verified
      echo "$device $(block_of "$line" launch) $verified" >> "${FAKE_TIMED_LOG:-/dev/null}"
      [[ $verified == unverified ]] && main_verification_fails "$line" && continue
      # Both conditions; the deciding one fills median_ms and the incumbent's.
      decided=cold table=$times
      [[ $line == *'"decide_warm":true'* ]] && decided=warm table=$warm_times
      warm=no
      [[ $line == *'"warm":true'* || $decided == warm ]] && warm=yes
      block=$(block_of "$line" launch)
      reply="{\"ok\":true,\"status\":\"ok\",\"runs\":20,$(interval "$(median_of "$block" "$table")")"
      reply+=",\"decided_by\":\"$decided\",\"cold_median_ms\":$(median_of "$block")"
      [[ $warm == yes ]] &&
        reply+=",\"warm_median_ms\":$(median_of "$block" "$warm_times"),\"warm_runs\":5,\"warm_burst\":8"
      # The cold-cache method the timing asked for, as the real worker reports it.
      if [[ $line == *'"rotate_inputs":true'* ]]; then
        reply+=',"cold_cache":"rotate","input_copies":3'
      else
        reply+=',"cold_cache":"flush"'
      fi
      if [[ $line == *'"incumbent"'* ]]; then
        theirs=$(block_of "$line" incumbent)
        reply+=",$(incumbent_interval "$(median_of "$theirs" "$table")")"
        reply+=",\"incumbent_cold_median_ms\":$(median_of "$theirs")"
        [[ $warm == yes ]] &&
          reply+=",\"incumbent_warm_median_ms\":$(median_of "$theirs" "$warm_times")"
      fi
      echo "$reply}" ;;
    *) echo '{"ok":false,"status":"error","message":"unexpected request"}' ;;
  esac
done
