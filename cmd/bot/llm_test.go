package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
)

func TestLLMCheck(t *testing.T) {
	// Bedrock reads its credentials from the environment, as in production.
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")

	ok := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{Text: "OK"} })
	refuses := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{Status: 401} })
	unknownModel := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{Status: 404} })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close() // nothing answers there any more

	base := Config{LLM: "none", Embeddings: "none", LLMTimeout: 2 * time.Second, EmbeddingDims: 256,
		OpenAIModel: "big", OpenAIFast: "small", OpenAIEmbed: "emb", OpenAIAPIKey: "k",
		BedrockModel: "anthropic.claude-test", BedrockRegion: "eu-west-1", BedrockEmbed: "amazon.titan-embed-text-v2:0"}
	tests := []struct {
		name    string
		change  func(*Config)
		wantErr bool
		want    []string
	}{
		{name: "offline", change: func(*Config) {}, want: []string{"runs offline; nothing to check"}},
		{name: "every provider answers", change: func(c *Config) {
			c.LLM, c.LLMFallback, c.OpenAIBaseURL, c.BedrockURL, c.Embeddings = "openai", []string{"bedrock"}, ok.OpenAIBaseURL(), ok.URL, "bedrock"
		}, want: []string{
			`openai   primary  plan/reply big: ok`, `openai   primary  intent     small: ok`,
			`bedrock  fallback plan/reply anthropic.claude-test: ok`, `bedrock  embed    ok: 256 dimensions`,
		}},
		{name: "a refused key names OPENAI_API_KEY", change: func(c *Config) { c.LLM, c.OpenAIBaseURL = "openai", refuses.OpenAIBaseURL() },
			wantErr: true, want: []string{"FAILED", "fix: OPENAI_API_KEY"}},
		{name: "an unknown model names BEDROCK_MODEL_ID", change: func(c *Config) { c.LLM, c.BedrockURL = "bedrock", unknownModel.URL },
			wantErr: true, want: []string{"FAILED", "fix: BEDROCK_MODEL_ID"}},
		{name: "no server names the URL", change: func(c *Config) { c.LLM, c.OpenAIBaseURL = "openai", dead+"/v1" },
			wantErr: true, want: []string{"fix: OPENAI_BASE_URL (no answer from the server)"}},
		{name: "embeddings of the configured size", change: func(c *Config) {
			c.Embeddings, c.OpenAIBaseURL, c.EmbeddingDims = "openai", ok.OpenAIBaseURL(), 512
			c.OpenAIEmbed = "emb"
		}, want: []string{"ok: 512 dimensions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			tt.change(&cfg)
			var out bytes.Buffer
			err := LLMCheck(context.Background(), cfg, &out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v; want error %v\n%s", err, tt.wantErr, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Fatalf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestLoadModelConfigNeedsNoDatabase(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	t.Setenv("HEARTH_LLM", "openai")
	t.Setenv("OPENAI_MODEL", "")
	if _, err := LoadModelConfig(); err == nil || !strings.Contains(err.Error(), "OPENAI_MODEL") {
		t.Fatalf("err = %v; want OPENAI_MODEL named", err)
	}
	t.Setenv("OPENAI_MODEL", "m")
	cfg, err := LoadModelConfig()
	if err != nil || cfg.LLM != "openai" || cfg.LLMTimeout != 10*time.Second {
		t.Fatalf("cfg %+v, %v", cfg, err)
	}
}

func TestWriteUsage(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := writeUsage(&out, []hearth.DailyUsage{
		{UserID: 1, User: "Ann", Day: day, UsageTotals: hearth.UsageTotals{Calls: 3, InputTokens: 900, OutputTokens: 40, CostUSD: 0.0012}},
		{Day: day, UsageTotals: hearth.UsageTotals{Calls: 1, InputTokens: 20}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2026-03-01  Ann                       3        900         40     0.0012", "(background)"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := usageDays([]string{"-days", "0"}); err == nil {
		t.Fatal("0 days accepted")
	}
}
