#!/bin/sh
# A tapete outside bot in plain POSIX shell: answers the first legal action (docs/bot-protocol.md).
#   tapete play pocha --seats 'exec(cmd="sh examples/first_legal_bot.sh"),random,random,random'
# Every message is one JSON object on one line, its "type" first, so sed is parser enough here.
while IFS= read -r line; do
    case "$line" in
        '{"type":"hello"'*) echo "ready first_legal_bot.sh" ;;
        '{"type":"decide"'*) printf '%s\n' "$line" | sed 's/.*"legal":\["\([^"]*\)".*/\1/' ;;
        '{"type":"quit"'*) exit 0 ;;
    esac
done
