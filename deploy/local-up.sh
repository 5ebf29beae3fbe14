#!/usr/bin/env bash
# Run the distributed stack on a local cluster: create it (kind, or k3d), build the image and load it,
# install NATS (JetStream) and MongoDB as their own releases, then the leadfinder chart, then `helm test`.
#   deploy/local-up.sh                      # kind
#   LEADFINDER_CLUSTER_TOOL=k3d deploy/local-up.sh
# Idempotent: re-running rebuilds the image and upgrades the releases.
set -euo pipefail

TOOL=${LEADFINDER_CLUSTER_TOOL:-kind}
CLUSTER=${LEADFINDER_CLUSTER:-leadfinder}
NAMESPACE=${LEADFINDER_NAMESPACE:-leadfinder}
IMAGE_REPO=${LEADFINDER_IMAGE_REPO:-leadfinder}
IMAGE_TAG=${LEADFINDER_IMAGE_TAG:-dev}
NATS_CHART_VERSION=${NATS_CHART_VERSION:-1.3.2}
MONGODB_CHART_VERSION=${MONGODB_CHART_VERSION:-16.5.45}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "local-up: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 is required on PATH"; }

case "$TOOL" in
  kind) CONTEXT="kind-$CLUSTER" ;;
  k3d) CONTEXT="k3d-$CLUSTER" ;;
  *) die "LEADFINDER_CLUSTER_TOOL must be kind or k3d, got '$TOOL'" ;;
esac
for cmd in docker helm kubectl "$TOOL"; do need "$cmd"; done

echo "==> cluster $CLUSTER ($TOOL)"
if [ "$TOOL" = kind ]; then
  if ! kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
    kind create cluster --name "$CLUSTER" --config "$ROOT/deploy/kind/cluster.yaml" --wait 120s
  fi
else
  if ! k3d cluster list "$CLUSTER" >/dev/null 2>&1; then
    k3d cluster create "$CLUSTER" --agents 2 --wait
  fi
fi

echo "==> image $IMAGE_REPO:$IMAGE_TAG"
docker build -f "$ROOT/deploy/Dockerfile" -t "$IMAGE_REPO:$IMAGE_TAG" "$ROOT"
if [ "$TOOL" = kind ]; then
  kind load docker-image "$IMAGE_REPO:$IMAGE_TAG" --name "$CLUSTER"
else
  k3d image import "$IMAGE_REPO:$IMAGE_TAG" --cluster "$CLUSTER"
fi

kubectl --context "$CONTEXT" create namespace "$NAMESPACE" --dry-run=client -o yaml |
  kubectl --context "$CONTEXT" apply -f -

echo "==> NATS with JetStream (release nats: nats://nats:4222)"
helm repo add nats https://nats-io.github.io/k8s/helm/charts/ --force-update >/dev/null
helm --kube-context "$CONTEXT" upgrade --install nats nats/nats \
  --namespace "$NAMESPACE" --version "$NATS_CHART_VERSION" \
  --set config.jetstream.enabled=true \
  --set config.jetstream.fileStore.pvc.size=1Gi \
  --set natsBox.enabled=false \
  --wait --timeout 5m

echo "==> MongoDB (release mongodb: mongodb://mongodb:27017/)"
# Standalone without auth is for a throwaway local cluster only; production uses externalMongodb.existingSecret.
# Extra chart flags (e.g. another image repository) can be passed in MONGODB_HELM_ARGS.
read -r -a mongodb_args <<<"${MONGODB_HELM_ARGS:-}"
helm --kube-context "$CONTEXT" upgrade --install mongodb oci://registry-1.docker.io/bitnamicharts/mongodb \
  --namespace "$NAMESPACE" --version "$MONGODB_CHART_VERSION" \
  --set architecture=standalone \
  --set auth.enabled=false \
  --set persistence.size=2Gi \
  ${mongodb_args[@]+"${mongodb_args[@]}"} \
  --wait --timeout 10m

echo "==> leadfinder"
helm --kube-context "$CONTEXT" upgrade --install leadfinder "$ROOT/charts/leadfinder" \
  --namespace "$NAMESPACE" \
  -f "$ROOT/deploy/values/dev.yaml" \
  --set global.image.repository="$IMAGE_REPO" \
  --set global.image.tag="$IMAGE_TAG" \
  --set global.image.pullPolicy=Never \
  --wait --timeout 10m

helm --kube-context "$CONTEXT" test leadfinder --namespace "$NAMESPACE" --timeout 3m

cat <<MSG

leadfinder is up in $CONTEXT, namespace $NAMESPACE.
  kubectl --context $CONTEXT -n $NAMESPACE port-forward svc/leadfinder-edge 8080:8080
  helm --kube-context $CONTEXT -n $NAMESPACE get notes leadfinder     # admin token, first account
Tear down: deploy/local-down.sh
MSG
