#!/bin/sh
# timed.sh NAME FILE CMD...: runs CMD and exits with its status; then appends to FILE one line saying how long NAME
# took, in wall time and in CPU time (CMD and every process it waited for, read from this shell's /proc entry).
# `make test` prints these lines for its lanes, so that a change's cost to the suite can be read off any run.
name=$1
file=$2
shift 2
start=$(date +%s)
"$@"
status=$?
end=$(date +%s)
# /proc/PID/stat after the command name's closing parenthesis: field 3 (state) comes first, so the children's user
# and system times (fields 16 and 17) are the 14th and 15th words.
set -- $(sed 's/^.*) //' "/proc/$$/stat")
ticks=$(getconf CLK_TCK)
shift 13
echo "$name: $((end - start)) s wall, $((($1 + $2) / ticks)) s CPU, exit $status" >>"$file"
exit $status
