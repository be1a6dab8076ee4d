package deploy_test

import (
	"archive/tar"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// buildFlags are the Dockerfile's build: a static, stripped binary.
const buildFlags = `CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/hearth ./cmd/bot`

// dockerfile is deploy/Dockerfile parsed by BuildKit into its stages.
func dockerfile(t *testing.T) []instructions.Stage {
	t.Helper()
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ast, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("BuildKit cannot parse the Dockerfile: %v", err)
	}
	for _, w := range ast.Warnings {
		t.Errorf("Dockerfile warning: %s", w.Short)
	}
	stages, _, err := instructions.Parse(ast.AST, nil)
	if err != nil {
		t.Fatalf("Dockerfile instructions: %v", err)
	}
	return stages
}

// finalImage is what the Dockerfile's last stage holds and runs.
type finalImage struct {
	base       string
	copies     map[string]string // destination → source in the build stage
	user       string
	entrypoint []string
	cmd        []string
	env        []string
	ports      []string
	health     []string
}

func TestDockerfile(t *testing.T) {
	t.Parallel()
	stages := dockerfile(t)
	if len(stages) != 2 {
		t.Fatalf("%d stages; want a build stage and the image", len(stages))
	}
	var runs []string
	for _, c := range stages[0].Commands {
		if r, ok := c.(*instructions.RunCommand); ok {
			runs = append(runs, strings.Join(r.CmdLine, " "))
		}
	}
	if !slices.Contains(runs, buildFlags) {
		t.Errorf("the build stage does not run %q (it runs %q)", buildFlags, runs)
	}
	img := final(t, stages[1])
	if img.base != "scratch" {
		t.Errorf("final stage from %q; want scratch (a static binary needs nothing else)", img.base)
	}
	want := map[string]string{"/hearth": "/out/hearth", "/etc/passwd": "/out/passwd", "/etc/ssl/certs/ca-certificates.crt": "/etc/ssl/certs/ca-certificates.crt"}
	if len(img.copies) != len(want) {
		t.Errorf("final stage copies %v; want %v", img.copies, want)
	}
	for dst, src := range want {
		if img.copies[dst] != src {
			t.Errorf("final stage copies %q to %s; want %q", img.copies[dst], dst, src)
		}
	}
	if img.user == "" || strings.HasPrefix(img.user, "0") || strings.HasPrefix(img.user, "root") {
		t.Errorf("USER %q; want a non-root user", img.user)
	}
	if !slices.Equal(img.entrypoint, []string{"/hearth"}) || !slices.Equal(img.cmd, []string{"serve"}) {
		t.Errorf("ENTRYPOINT %q CMD %q; want /hearth serve", img.entrypoint, img.cmd)
	}
	if !slices.Equal(img.health, []string{"CMD", "/hearth", "health"}) {
		t.Errorf("HEALTHCHECK %q; want /hearth health", img.health)
	}
	if !slices.Contains(img.env, "HEARTH_HTTP_ADDR=:8080") || !slices.Contains(img.ports, "8080") {
		t.Errorf("env %q ports %q; want Hearth on :8080", img.env, img.ports)
	}
}

func final(t *testing.T, st instructions.Stage) finalImage {
	t.Helper()
	img := finalImage{base: st.BaseName, copies: map[string]string{}}
	for _, c := range st.Commands {
		switch c := c.(type) {
		case *instructions.CopyCommand:
			if c.From == "" {
				t.Errorf("COPY %v in the final stage does not come from the build stage", c.SourcePaths)
			}
			for _, src := range c.SourcePaths {
				img.copies[c.DestPath] = src
			}
		case *instructions.UserCommand:
			img.user = c.User
		case *instructions.EntrypointCommand:
			img.entrypoint = c.CmdLine
		case *instructions.CmdCommand:
			img.cmd = c.CmdLine
		case *instructions.EnvCommand:
			for _, kv := range c.Env {
				img.env = append(img.env, kv.Key+"="+kv.Value)
			}
		case *instructions.ExposeCommand:
			img.ports = append(img.ports, c.Ports...)
		case *instructions.HealthCheckCommand:
			img.health = c.Health.Test
		}
	}
	return img
}

// TestImage builds the binary as the Dockerfile does and assembles the
// image offline, layer by layer as the final stage describes it, with
// go-containerregistry: the binary must be static (no interpreter, no
// shared libraries) and the image's size is reported.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	img := final(t, dockerfile(t)[1])
	dir := t.TempDir()
	bin := filepath.Join(dir, "hearth")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	// As the Dockerfile builds it, but without -trimpath: that only
	// rewrites file names inside the binary, and leaving it out lets this
	// build reuse the packages every other build here has compiled.
	build := exec.Command(gobin, "build", "-ldflags=-s -w", "-o", bin, "./cmd/bot")
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary asks for a dynamic loader: not static")
		}
	}
	if libs, _ := ef.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v: not static", libs)
	}
	ef.Close()

	// The build stage's files, as the final stage copies them.
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Logf("no CA bundle on this machine (%v): the image is measured without it", err)
	}
	binary, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"/etc/ssl/certs/ca-certificates.crt": certs,
		"/etc/passwd":                        []byte("hearth:x:10001:10001:Hearth:/:/sbin/nologin\n"),
		"/hearth":                            binary,
	}
	var layer bytes.Buffer
	tw := tar.NewWriter(&layer)
	for _, dst := range sortedKeys(img.copies) {
		data, ok := files[dst]
		if !ok {
			t.Fatalf("the final stage copies %s, which this test does not know", dst)
		}
		mode := int64(0o644)
		if dst == "/hearth" {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: strings.TrimPrefix(dst, "/"), Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := tarball.LayerFromReader(bytes.NewReader(layer.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	image, err := mutate.AppendLayers(empty.Image, l)
	if err != nil {
		t.Fatal(err)
	}
	ports := map[string]struct{}{}
	for _, p := range img.ports {
		ports[p+"/tcp"] = struct{}{}
	}
	image, err = mutate.Config(image, v1.Config{
		User: img.user, Entrypoint: img.entrypoint, Cmd: img.cmd, Env: img.env, ExposedPorts: ports,
		Healthcheck: &v1.HealthConfig{Test: img.health},
	})
	if err != nil {
		t.Fatal(err)
	}
	compressed, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := image.RawManifest()
	if err != nil {
		t.Fatal(err)
	}
	config, err := image.RawConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	var cf v1.ConfigFile
	if err := json.Unmarshal(config, &cf); err != nil || cf.Config.User != "10001:10001" {
		t.Fatalf("image config user %q (%v); want 10001:10001", cf.Config.User, err)
	}
	total := compressed + int64(len(manifest)) + int64(len(config))
	t.Logf("image: binary %.1f MiB, layer %.1f MiB uncompressed, %.1f MiB compressed; pushed size %.1f MiB",
		mib(len(binary)), mib(layer.Len()), mib(int(compressed)), mib(int(total)))
	if total > 64<<20 {
		t.Errorf("the image is %.1f MiB; it should stay small", mib(int(total)))
	}
}

func mib(n int) float64 { return float64(n) / (1 << 20) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestCompose loads compose.yaml as `docker compose` does, validated
// against the compose schema (unknown keys fail).
func TestCompose(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  wd,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(wd, "compose.yaml")}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) { o.SetProjectName("hearth", true) })
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	db, ok := p.Services["db"]
	if !ok || !strings.HasPrefix(db.Image, "pgvector/pgvector:") {
		t.Fatalf("db service %+v; want a pgvector image", db.Image)
	}
	if db.HealthCheck == nil || len(db.HealthCheck.Test) == 0 {
		t.Error("db has no health check")
	}
	if len(db.Volumes) == 0 || db.Volumes[0].Source != "pgdata" || db.Volumes[0].Type != types.VolumeTypeVolume {
		t.Errorf("db volumes %+v; want the named volume pgdata", db.Volumes)
	}
	if _, ok := p.Volumes["pgdata"]; !ok {
		t.Error("volume pgdata is not declared")
	}
	h, ok := p.Services["hearth"]
	if !ok {
		t.Fatal("no hearth service")
	}
	if h.Build == nil || filepath.Base(h.Build.Dockerfile) != "Dockerfile" || filepath.Clean(h.Build.Context) != filepath.Dir(wd) {
		t.Errorf("hearth build %+v; want deploy/Dockerfile from the repository root", h.Build)
	}
	if dep, ok := h.DependsOn["db"]; !ok || dep.Condition != types.ServiceConditionHealthy {
		t.Errorf("hearth depends on %+v; want db healthy first", h.DependsOn)
	}
	if h.HealthCheck == nil || !slices.Equal(h.HealthCheck.Test, []string{"CMD", "/hearth", "health"}) {
		t.Errorf("hearth health check %+v; want /hearth health", h.HealthCheck)
	}
	if len(h.Ports) != 1 || h.Ports[0].Published != "8080" || h.Ports[0].Target != 8080 {
		t.Errorf("hearth ports %+v; want 8080", h.Ports)
	}
	url := h.Environment["DATABASE_URL"]
	if url == nil || !strings.Contains(*url, "@db:5432/hearth") {
		t.Errorf("DATABASE_URL %v; want the db service", url)
	}
}

// decodeStrict decodes one manifest into its Kubernetes type, failing on
// any field the type does not have.
func decodeStrict(t *testing.T, file string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("k8s", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, into); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// TestKubernetes decodes every manifest strictly into the API types and
// checks they fit together: three replicas with probes on /readyz and
// /healthz, non-root, secrets from the Secret, a disruption budget, and a
// Service and Ingress that reach the pods' port.
func TestKubernetes(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir("k8s")
	if err != nil {
		t.Fatal(err)
	}
	var dep appsv1.Deployment
	var pdb policyv1.PodDisruptionBudget
	var secret corev1.Secret
	var svc corev1.Service
	var ing networkingv1.Ingress
	objects := map[string]any{"deployment.yaml": &dep, "pdb.yaml": &pdb, "secret.yaml": &secret, "service.yaml": &svc, "ingress.yaml": &ing}
	for _, e := range entries {
		if _, ok := objects[e.Name()]; !ok {
			t.Errorf("k8s/%s is not checked by this test", e.Name())
		}
	}
	for file, obj := range objects {
		decodeStrict(t, file, obj)
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 3 {
		t.Errorf("replicas %v; want 3", dep.Spec.Replicas)
	}
	labels := dep.Spec.Template.Labels
	for k, v := range dep.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the selector %s=%s does not match the pod labels", k, v)
		}
	}
	if len(dep.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%d containers; want 1", len(dep.Spec.Template.Spec.Containers))
	}
	c := dep.Spec.Template.Spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("readiness probe is not GET /readyz")
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Error("liveness probe is not GET /healthz")
	}
	sc := dep.Spec.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Error("the pod may run as root")
	}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != secret.Name {
		t.Errorf("the container does not take its secrets from Secret %q", secret.Name)
	}
	if _, ok := secret.StringData["DATABASE_URL"]; !ok {
		t.Error("the Secret has no DATABASE_URL")
	}
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if e := env["HEARTH_REPLICA_ID"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Error("HEARTH_REPLICA_ID is not the pod name")
	}
	if env["HEARTH_HTTP_ADDR"].Value != ":8080" || env["HEARTH_DEV_SIGNIN"].Value != "" {
		t.Error("the pods must listen on :8080 with real sign-in")
	}
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() < 2 {
		t.Errorf("the disruption budget keeps %v replicas; want at least 2", pdb.Spec.MinAvailable)
	}
	for k, v := range pdb.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the disruption budget selects %s=%s, not the pods", k, v)
		}
	}
	for k, v := range svc.Spec.Selector {
		if labels[k] != v {
			t.Errorf("the Service selects %s=%s, not the pods", k, v)
		}
	}
	portName := c.Ports[0].Name
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort.String() != portName {
		t.Errorf("the Service does not target the container port %q", portName)
	}
	backend := ing.Spec.Rules[0].HTTP.Paths[0].Backend.Service
	if backend == nil || backend.Name != svc.Name || backend.Port.Name != svc.Spec.Ports[0].Name {
		t.Errorf("the Ingress does not reach Service %s", svc.Name)
	}
	if len(ing.Spec.TLS) == 0 {
		t.Error("the Ingress does not terminate TLS")
	}
}
