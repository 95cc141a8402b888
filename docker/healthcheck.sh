#!/bin/bash
# Container HEALTHCHECK: GET /healthz on the metrics listener, exit 0 on HTTP 200. Written with bash's
# /dev/tcp so the slim image needs neither curl nor wget.
set -euo pipefail
listen=${SYNCML_METRICS_LISTEN:-127.0.0.1:9090}
port=${listen##*:}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
IFS= read -r status_line <&3
[[ $status_line == HTTP/1.?" 200 "* ]]
