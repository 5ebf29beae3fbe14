#!/usr/bin/env bash
# Remove what deploy/local-up.sh created. By default the whole local cluster goes;
# LEADFINDER_KEEP_CLUSTER=1 only uninstalls the three releases and the namespace.
set -euo pipefail

TOOL=${LEADFINDER_CLUSTER_TOOL:-kind}
CLUSTER=${LEADFINDER_CLUSTER:-leadfinder}
NAMESPACE=${LEADFINDER_NAMESPACE:-leadfinder}

case "$TOOL" in
  kind) CONTEXT="kind-$CLUSTER" ;;
  k3d) CONTEXT="k3d-$CLUSTER" ;;
  *) echo "local-down: LEADFINDER_CLUSTER_TOOL must be kind or k3d, got '$TOOL'" >&2; exit 1 ;;
esac

if [ "${LEADFINDER_KEEP_CLUSTER:-0}" = 1 ]; then
  for release in leadfinder mongodb nats; do
    helm --kube-context "$CONTEXT" uninstall "$release" --namespace "$NAMESPACE" --ignore-not-found --wait
  done
  kubectl --context "$CONTEXT" delete namespace "$NAMESPACE" --ignore-not-found
  exit 0
fi

if [ "$TOOL" = kind ]; then
  kind delete cluster --name "$CLUSTER"
else
  k3d cluster delete "$CLUSTER"
fi
