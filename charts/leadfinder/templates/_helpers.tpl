{{/* Chart name, truncated to the 63 characters a DNS label allows. */}}
{{- define "leadfinder.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name; the release name alone when it already contains the chart name. */}}
{{- define "leadfinder.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "leadfinder.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels on every object. Call with the root context. */}}
{{- define "leadfinder.labels" -}}
helm.sh/chart: {{ include "leadfinder.chart" . }}
app.kubernetes.io/name: {{ include "leadfinder.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: leadfinder
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selector labels of one role: name, instance, component. Call with (dict "root" $ "role" "edge"). */}}
{{- define "leadfinder.selectorLabels" -}}
app.kubernetes.io/name: {{ include "leadfinder.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/* Labels of one role's objects. Call with (dict "root" $ "role" "edge"). */}}
{{- define "leadfinder.roleLabels" -}}
{{ include "leadfinder.labels" .root }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/* Name of one role's objects, e.g. <fullname>-fetcher. */}}
{{- define "leadfinder.roleName" -}}
{{- printf "%s-%s" (include "leadfinder.fullname" .root) .role | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Headless gRPC Service of fetcher or filter; clients resolve every pod through it (dns:/// round-robin). */}}
{{- define "leadfinder.headlessName" -}}
{{- printf "%s-%s-headless" (include "leadfinder.fullname" .root) .role | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "leadfinder.grpcAddr" -}}
{{- printf "dns:///%s.%s.svc.%s:%v" (include "leadfinder.headlessName" .) .root.Release.Namespace .root.Values.global.clusterDomain .root.Values.global.ports.grpc -}}
{{- end -}}

{{- define "leadfinder.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "leadfinder.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Secret holding the application secrets: the existing one, or the chart's. */}}
{{- define "leadfinder.secretName" -}}
{{- default (include "leadfinder.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* The Secret the hook Job creates once (admin token, session secret) when they are neither given nor existing. */}}
{{- define "leadfinder.generatedSecretName" -}}
{{- printf "%s-generated" (include "leadfinder.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Secret holding one application secret (a key of secrets.keys). Call with (dict "root" $ "key" "sessionSecret").
existingSecret wins; then an explicit value (the chart's Secret); then, for the two secrets the service can
use random values for, the generated Secret. Anything else fails the render with what to set: nothing
random or cluster-dependent is ever rendered, so two renders are byte-identical.
*/}}
{{- define "leadfinder.secretFor" -}}
{{- $s := .root.Values.secrets -}}
{{- if $s.existingSecret -}}
{{- $s.existingSecret -}}
{{- else if index $s .key -}}
{{- include "leadfinder.fullname" .root -}}
{{- else if and $s.generate (has .key (list "adminToken" "sessionSecret")) -}}
{{- include "leadfinder.generatedSecretName" .root -}}
{{- else -}}
{{- include "leadfinder.fullname" .root -}}
{{- end -}}
{{- end -}}

{{/* True (non-empty) when the hook Job must generate secrets. */}}
{{- define "leadfinder.generatesSecrets" -}}
{{- $s := .Values.secrets -}}
{{- if and $s.generate (not $s.existingSecret) (or (not $s.sessionSecret) (and .Values.admin.enabled (not $s.adminToken))) -}}
true
{{- end -}}
{{- end -}}

{{/* The chart's own Secret is rendered when no existingSecret is named and at least one value is given. */}}
{{- define "leadfinder.rendersSecret" -}}
{{- $s := .Values.secrets -}}
{{- if and (not $s.existingSecret) (or $s.sessionSecret (and .Values.admin.enabled $s.adminToken) $s.llmApiKey $s.braveApiKey $s.oidcClientSecret) -}}
true
{{- end -}}
{{- end -}}

{{/*
Node's heap limit in MiB from a role's memory limit: global.heapPercent of it, so V8 collects before the
kernel kills the container. Call with (dict "root" $ "resources" $v.resources); empty without a limit.
*/}}
{{- define "leadfinder.heapMiB" -}}
{{- $limit := "" -}}
{{- with .resources -}}{{- with .limits -}}{{- $limit = toString (default "" .memory) -}}{{- end -}}{{- end -}}
{{- if $limit -}}
{{- $mib := 0 -}}
{{- if hasSuffix "Gi" $limit -}}
{{- $mib = mul (trimSuffix "Gi" $limit | atoi) 1024 -}}
{{- else if hasSuffix "Mi" $limit -}}
{{- $mib = trimSuffix "Mi" $limit | atoi -}}
{{- else -}}
{{- fail (printf "resources.limits.memory %q: write it in Mi or Gi (the Node heap limit is derived from it)" $limit) -}}
{{- end -}}
{{- div (mul $mib .root.Values.global.heapPercent) 100 -}}
{{- end -}}
{{- end -}}

{{- define "leadfinder.mongodbSecretName" -}}
{{- default (printf "%s-mongodb" (include "leadfinder.fullname" .)) .Values.externalMongodb.existingSecret -}}
{{- end -}}

{{/* Image reference of one role: role override, else global; a digest wins over a tag. */}}
{{- define "leadfinder.image" -}}
{{- $g := .root.Values.global.image -}}
{{- $r := .values.image -}}
{{- $repo := default $g.repository $r.repository -}}
{{- $tag := default (default .root.Chart.AppVersion $g.tag) $r.tag -}}
{{- $digest := default $g.digest $r.digest -}}
{{- $ref := ternary (printf "%s/%s" $g.registry $repo) $repo (ne $g.registry "") -}}
{{- if $digest -}}
{{- printf "%s@%s" $ref $digest -}}
{{- else -}}
{{- printf "%s:%s" $ref $tag -}}
{{- end -}}
{{- end -}}

{{/*
What differs between roles, kept in one place so workloads.yaml stays a single loop.
  port: the container port probes use; probe: http or grpc; datastores: gets MongoDB and NATS;
  headless: fetcher/filter gRPC Service; secretEnv: env name → key in secrets.keys (least privilege:
  the internet-facing fetcher never sees the admin token or session secret).
*/}}
{{- define "leadfinder.roles" -}}
edge:
  probe: http
  probePort: http
  datastores: true
  headless: false
  secretEnv:
    LEADFINDER_ADMIN_TOKEN: adminToken
    LEADFINDER_SESSION_SECRET: sessionSecret
    LEADFINDER_OIDC_CLIENT_SECRET: oidcClientSecret
coordinator:
  probe: http
  probePort: health
  datastores: true
  headless: false
  secretEnv: {}
fetcher:
  probe: grpc
  probePort: grpc
  datastores: false
  headless: true
  secretEnv:
    LEADFINDER_BRAVE_API_KEY: braveApiKey
filter:
  probe: grpc
  probePort: grpc
  datastores: false
  headless: true
  secretEnv:
    LEADFINDER_LLM_API_KEY: llmApiKey
{{- end -}}

{{/* One probe. Call with (dict "root" $ "traits" $traits "probe" .Values.x.livenessProbe "path" "/healthz"). */}}
{{- define "leadfinder.probe" -}}
{{- if eq .traits.probe "grpc" -}}
grpc:
  port: {{ .root.Values.global.ports.grpc }}
{{- else -}}
httpGet:
  path: {{ .path }}
  port: {{ .traits.probePort }}
{{- end }}
initialDelaySeconds: {{ .probe.initialDelaySeconds }}
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
failureThreshold: {{ .probe.failureThreshold }}
successThreshold: {{ .probe.successThreshold }}
{{- end -}}

{{/*
Peer list for "global unicast only", rendered from files/global-unicast.json, the list the fetcher's SSRF
guard is tested against (test/helm/egress-guard.test.ts), plus networkPolicy.extraExceptCIDRs.
*/}}
{{- define "leadfinder.internetPeers" -}}
{{- $list := .Files.Get "files/global-unicast.json" | fromJson -}}
{{- $extra4 := list -}}
{{- $extra6 := list -}}
{{- range .Values.networkPolicy.extraExceptCIDRs -}}
{{- if contains ":" . -}}{{- $extra6 = append $extra6 . -}}{{- else -}}{{- $extra4 = append $extra4 . -}}{{- end -}}
{{- end -}}
{{- range $family, $extra := dict "ipv4" $extra4 "ipv6" $extra6 }}
{{- $block := index $list $family }}
- ipBlock:
    cidr: {{ $block.cidr }}
    except:
      {{- range $block.except }}
      - {{ .cidr }}
      {{- end }}
      {{- range $extra }}
      - {{ . }}
      {{- end }}
{{- end }}
{{- end -}}
