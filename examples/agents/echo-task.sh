#!/bin/sh
# The smallest command agent: reads its task on stdin and writes it, with what it was given, to notes.txt in its workspace.
task=$(cat)
printf 'task: %s\nargs: %s\n' "$task" "$*" > notes.txt
echo "wrote notes.txt"
