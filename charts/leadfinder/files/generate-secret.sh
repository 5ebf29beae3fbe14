# Creates the Secret $SECRET_NAME once, with a random value for each key in $SECRET_KEYS that it lacks;
# never rewrites a value that exists, so upgrades and GitOps syncs keep sessions and tokens valid.
# Runs in the chart's pre-install/pre-upgrade hook Job (POSIX sh + curl, talking to the Kubernetes API
# with the Job's ServiceAccount). Values: 48 random bytes as 64 URL-safe base64 characters.
set -eu
api=${KUBERNETES_API:-https://kubernetes.default.svc}
sa=${SERVICE_ACCOUNT_DIR:-/var/run/secrets/kubernetes.io/serviceaccount}
ns=${SECRET_NAMESPACE:-$(cat "$sa/namespace")}
url="$api/api/v1/namespaces/$ns/secrets"
token=$(cat "$sa/token")
tls=""
[ -f "$sa/ca.crt" ] && tls="--cacert $sa/ca.crt"
labels=${SECRET_LABELS_JSON:-"{}"}
body=$(mktemp)
trap 'rm -f "$body"' EXIT

call() { # method url [json] [content-type]: prints the HTTP status, the answer goes to $body
  # shellcheck disable=SC2086
  curl -sS $tls -o "$body" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $token" \
    -H "Content-Type: ${4:-application/json}" ${3:+--data "$3"} "$2"
}
random_value() { head -c 48 /dev/urandom | base64 | tr -d '\n=' | tr '+/' '-_'; }
b64() { printf '%s' "$1" | base64 | tr -d '\n'; }

missing=""
status=$(call GET "$url/$SECRET_NAME")
case $status in
  # The API answers compact JSON: "key":"value" (an escaped copy in an annotation does not match).
  200) for key in $SECRET_KEYS; do grep -q "\"$key\":\"" "$body" || missing="$missing $key"; done ;;
  404) missing=$SECRET_KEYS ;;
  *) echo "reading secret $ns/$SECRET_NAME: HTTP $status" >&2; cat "$body" >&2; exit 1 ;;
esac
if [ -z "$missing" ]; then
  echo "secret $ns/$SECRET_NAME has every key ($SECRET_KEYS); nothing changed"
  exit 0
fi

data=""
for key in $missing; do data="$data${data:+,}\"$key\":\"$(b64 "$(random_value)")\""; done
if [ "$status" = 404 ]; then
  status=$(call POST "$url" "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"type\":\"Opaque\",\"metadata\":{\"name\":\"$SECRET_NAME\",\"labels\":$labels},\"data\":{$data}}")
  # 409: another run created it first; its values stand.
  case $status in 201 | 409) ;; *) echo "creating secret $ns/$SECRET_NAME: HTTP $status" >&2; cat "$body" >&2; exit 1 ;; esac
else
  status=$(call PATCH "$url/$SECRET_NAME" "{\"data\":{$data}}" application/merge-patch+json)
  [ "$status" = 200 ] || { echo "adding keys to secret $ns/$SECRET_NAME: HTTP $status" >&2; cat "$body" >&2; exit 1; }
fi
echo "secret $ns/$SECRET_NAME: generated$missing"
