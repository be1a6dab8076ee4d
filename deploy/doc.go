// Package deploy holds how Hearth is run outside a developer's machine: the
// container image (Dockerfile), a compose file (Hearth and a pgvector
// PostgreSQL), Kubernetes manifests (k8s/) and an example TLS proxy
// (Caddyfile), next to the local database bootstrap and browser install
// scripts. Its tests check these files without Docker or a cluster: the
// Dockerfile is parsed by BuildKit's parser, compose.yaml is loaded strictly
// by compose-go, the manifests are decoded strictly into Kubernetes API
// types, and the image is assembled offline from the static binary with
// go-containerregistry to measure its size.
package deploy
