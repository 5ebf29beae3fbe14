{{/*
Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget of one role.
Call with (dict "root" $ "role" "fetcher"); templates/workloads.yaml ranges over the four roles.
*/}}
{{- define "leadfinder.workload" -}}
{{- $root := .root -}}
{{- $role := .role -}}
{{- $v := index $root.Values $role -}}
{{- $traits := index (include "leadfinder.roles" $root | fromYaml) $role -}}
{{- $ports := $root.Values.global.ports -}}
{{- $ctx := dict "root" $root "role" $role -}}
{{- $name := include "leadfinder.roleName" $ctx -}}
{{- $fullname := include "leadfinder.fullname" $root -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
spec:
  {{- if not $v.autoscaling.enabled }}
  replicas: {{ $v.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "leadfinder.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "leadfinder.roleLabels" $ctx | nindent 8 }}
        {{- with $root.Values.global.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        # A changed ConfigMap or chart Secret rolls the pods; env is read once at start-up.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- if include "leadfinder.rendersSecret" $root }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
        {{- end }}
        {{- with $v.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "leadfinder.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $root.Values.serviceAccount.automountServiceAccountToken }}
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
      {{- with $root.Values.global.imagePullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.global.podSecurityContext | nindent 8 }}
      topologySpreadConstraints:
        {{- if $v.topologySpreadConstraints }}
        {{- tpl (toYaml $v.topologySpreadConstraints) $root | nindent 8 }}
        {{- else }}
        # Soft spread: replicas prefer distinct nodes and zones but still schedule on a one-node cluster.
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "leadfinder.selectorLabels" $ctx | nindent 14 }}
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "leadfinder.selectorLabels" $ctx | nindent 14 }}
        {{- end }}
      {{- with $v.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ $role }}
          image: {{ include "leadfinder.image" (dict "root" $root "values" $v) | quote }}
          imagePullPolicy: {{ $root.Values.global.image.pullPolicy }}
          args: ["--role", {{ $role | quote }}]
          securityContext:
            {{- toYaml $root.Values.global.containerSecurityContext | nindent 12 }}
          ports:
            {{- if eq $role "edge" }}
            - name: http
              containerPort: {{ $ports.http }}
              protocol: TCP
            {{- if $root.Values.admin.enabled }}
            - name: admin
              containerPort: {{ $root.Values.admin.port }}
              protocol: TCP
            {{- end }}
            {{- else }}
            - name: health
              containerPort: {{ $ports.health }}
              protocol: TCP
            {{- end }}
            {{- if $traits.headless }}
            - name: grpc
              containerPort: {{ $ports.grpc }}
              protocol: TCP
            {{- end }}
            {{- if $root.Values.metrics.enabled }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ $fullname }}-config
            - configMapRef:
                name: {{ $name }}-config
          env:
            {{- if eq $role "edge" }}
            - name: PORT
              value: {{ $ports.http | quote }}
            {{- if $root.Values.admin.enabled }}
            # The admin API listens only here, never on the public port the Ingress routes to.
            - name: LEADFINDER_ADMIN_PORT
              value: {{ $root.Values.admin.port | quote }}
            {{- end }}
            {{- else }}
            - name: LEADFINDER_HEALTH_PORT
              value: {{ $ports.health | quote }}
            {{- end }}
            {{- if $traits.headless }}
            - name: LEADFINDER_GRPC_PORT
              value: {{ $ports.grpc | quote }}
            {{- end }}
            {{- with include "leadfinder.heapMiB" (dict "root" $root "resources" $v.resources) }}
            # V8 collects before the container's memory limit is reached (global.heapPercent of it).
            - name: NODE_OPTIONS
              value: "--enable-source-maps --max-old-space-size={{ . }}"
            {{- end }}
            - name: OTEL_SERVICE_NAME
              value: leadfinder-{{ $role }}
            {{- if $root.Values.metrics.enabled }}
            # Prometheus metrics on a listener of their own (templates/metrics.yaml); no Ingress routes to it.
            - name: LEADFINDER_METRICS_PORT
              value: {{ $root.Values.metrics.port | quote }}
            {{- end }}
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            - name: OTEL_RESOURCE_ATTRIBUTES
              value: k8s.pod.name=$(POD_NAME),k8s.namespace.name=$(POD_NAMESPACE),service.version={{ $root.Chart.AppVersion }}
            {{- if $traits.datastores }}
            - name: LEADFINDER_NATS_URL
              value: {{ $root.Values.externalNats.url | quote }}
            {{- $nats := $root.Values.externalNats }}
            {{- if $nats.existingSecret }}
            {{- range $env, $key := dict "LEADFINDER_NATS_USER" $nats.userKey "LEADFINDER_NATS_PASSWORD" $nats.passwordKey "LEADFINDER_NATS_TOKEN" $nats.tokenKey }}
            {{- if $key }}
            - name: {{ $env }}
              valueFrom:
                secretKeyRef:
                  name: {{ $nats.existingSecret }}
                  key: {{ $key }}
            {{- end }}
            {{- end }}
            {{- range $env, $key := dict "LEADFINDER_NATS_CREDS_FILE" $nats.credsKey "LEADFINDER_NATS_TLS_CA_FILE" $nats.tls.caKey "LEADFINDER_NATS_TLS_CERT_FILE" $nats.tls.certKey "LEADFINDER_NATS_TLS_KEY_FILE" $nats.tls.keyKey }}
            {{- if $key }}
            - name: {{ $env }}
              value: /etc/leadfinder/nats/{{ $key }}
            {{- end }}
            {{- end }}
            {{- end }}
            - name: LEADFINDER_MONGODB_URL
              valueFrom:
                secretKeyRef:
                  name: {{ include "leadfinder.mongodbSecretName" $root }}
                  key: {{ ternary $root.Values.externalMongodb.existingSecretKey "mongodb-url" (ne $root.Values.externalMongodb.existingSecret "") }}
            {{- end }}
            {{- range $env, $key := $traits.secretEnv }}
            {{- if or (ne $key "adminToken") $root.Values.admin.enabled }}
            - name: {{ $env }}
              valueFrom:
                secretKeyRef:
                  name: {{ include "leadfinder.secretFor" (dict "root" $root "key" $key) }}
                  key: {{ index $root.Values.secrets.keys $key }}
                  {{- /* Every edge replica must sign with the same secret, and an enabled admin API needs its
                         token: refuse to start without them. */}}
                  optional: {{ not (has $key (list "sessionSecret" "adminToken")) }}
            {{- end }}
            {{- end }}
            {{- with $v.extraEnv }}
            {{- tpl (toYaml .) $root | nindent 12 }}
            {{- end }}
          {{- with $v.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- if $v.startupProbe.enabled }}
          startupProbe:
            {{- include "leadfinder.probe" (dict "root" $root "traits" $traits "probe" $v.startupProbe "path" "/healthz") | nindent 12 }}
          {{- end }}
          {{- if $v.livenessProbe.enabled }}
          livenessProbe:
            {{- include "leadfinder.probe" (dict "root" $root "traits" $traits "probe" $v.livenessProbe "path" "/healthz") | nindent 12 }}
          {{- end }}
          {{- if $v.readinessProbe.enabled }}
          readinessProbe:
            {{- include "leadfinder.probe" (dict "root" $root "traits" $traits "probe" $v.readinessProbe "path" "/readyz") | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            - name: data
              mountPath: /data
            {{- if and $traits.datastores $root.Values.externalNats.existingSecret }}
            - name: nats
              mountPath: /etc/leadfinder/nats
              readOnly: true
            {{- end }}
      volumes:
        # The root filesystem is read-only: temporary files go to /tmp,
        # LEADFINDER_DATA_DIR (the bundled corpus sample) to /data.
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.global.tmpSizeLimit }}
        - name: data
          emptyDir:
            sizeLimit: {{ $root.Values.global.dataSizeLimit }}
        {{- if and $traits.datastores $root.Values.externalNats.existingSecret }}
        - name: nats
          secret:
            secretName: {{ $root.Values.externalNats.existingSecret }}
            defaultMode: 288 # 0o440: owner and group (fsGroup) read; decimal, as YAML 1.1 and 1.2 read octal differently
        {{- end }}
{{- if eq $role "edge" }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
  {{- with $root.Values.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ $root.Values.service.type }}
  selector:
    {{- include "leadfinder.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: http
      port: {{ $root.Values.service.port }}
      targetPort: http
      protocol: TCP
      appProtocol: http
{{- if $root.Values.admin.enabled }}
---
# The admin API on its own Service and port: the Ingress routes only to the edge Service above, and the
# edge NetworkPolicy admits this port only from admin.ingressFrom (kubectl port-forward works regardless).
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}-admin
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "leadfinder.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: admin
      port: {{ $root.Values.admin.port }}
      targetPort: admin
      protocol: TCP
      appProtocol: http
{{- end }}
{{- end }}
{{- if $traits.headless }}
---
# Headless: DNS answers with every ready pod, so gRPC clients (dns:///, round_robin) balance per call
# instead of pinning one long-lived HTTP/2 connection to a single ClusterIP backend.
apiVersion: v1
kind: Service
metadata:
  name: {{ include "leadfinder.headlessName" $ctx }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
spec:
  type: ClusterIP
  clusterIP: None
  selector:
    {{- include "leadfinder.selectorLabels" $ctx | nindent 4 }}
  ports:
    - name: grpc
      port: {{ $ports.grpc }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
{{- end }}
{{- if $v.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ $v.autoscaling.minReplicas }}
  maxReplicas: {{ $v.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $v.autoscaling.targetCPU }}
{{- end }}
{{- if $v.pdb.create }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "leadfinder.roleLabels" $ctx | nindent 4 }}
spec:
  {{- if ne (toString $v.pdb.minAvailable) "" }}
  minAvailable: {{ $v.pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ ternary 1 $v.pdb.maxUnavailable (eq (toString $v.pdb.maxUnavailable) "") }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "leadfinder.selectorLabels" $ctx | nindent 6 }}
{{- end }}
{{- end -}}
