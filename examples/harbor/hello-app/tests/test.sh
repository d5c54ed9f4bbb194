#!/bin/bash
# The verifier: it checks the container's absolute paths and writes the reward Harbor reads.
mkdir -p /logs/verifier
if [ "$(cat /app/greeting.txt 2>/dev/null)" = "hello, $(cat /app/name.txt)" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
