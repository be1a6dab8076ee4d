package hybrid

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

type clincRow struct {
	Text    string   `json:"text"`
	Intent  string   `json:"intent"`
	PrevBot string   `json:"prev_bot"`
	Options []string `json:"options"`
}

// TestIntentRoutingCLINC measures, on the public CLINC development set
// (../shared/eval beside the checkout, or $HEARTH_EVAL), how many
// messages the hybrid intent stage routes to the model at each confidence
// threshold and what that can do to intent accuracy: offline only, and the
// bounds if the model were always right or always wrong on the routed
// rows. No model is reachable here; to measure a real one on the routed
// rows at the default threshold, configure it as for bot serve:
//
//	HEARTH_EVAL_LLM=openai OPENAI_BASE_URL=… OPENAI_API_KEY=… OPENAI_FAST_MODEL=… \
//	  go test -run TestIntentRoutingCLINC -v ./pipeline/hybrid/
func TestIntentRoutingCLINC(t *testing.T) {
	dir := os.Getenv("HEARTH_EVAL")
	if dir == "" {
		dir = "../../../shared/eval"
	}
	f, err := os.Open(filepath.Join(dir, "intents_clinc_dev.jsonl"))
	if err != nil {
		t.Skipf("no evaluation data: %v", err)
	}
	defer f.Close()
	var rows []clincRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r clincRow
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Text != "" {
			if r.Intent == "out_of_scope" {
				r.Intent = string(nlu.Chat)
			}
			rows = append(rows, r)
		}
	}
	c, err := nlu.New()
	if err != nil {
		t.Fatal(err)
	}
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	type scored struct {
		conf float64
		ok   bool
		row  clincRow
	}
	all := make([]scored, len(rows))
	for i, r := range rows {
		var recent []nlu.Turn
		if r.PrevBot != "" {
			recent = []nlu.Turn{{FromBot: true, Text: r.PrevBot, Options: r.Options}}
		}
		res := c.Classify(r.Text, recent, ref)
		all[i] = scored{conf: res.Confidence, ok: string(res.Intent) == r.Intent, row: r}
	}
	n := float64(len(all))
	t.Logf("CLINC dev: %d rows", len(all))
	t.Logf("threshold  routed   offline-only  model-always-right  model-always-wrong")
	for _, th := range []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95} {
		routed, okKept, okAll := 0, 0, 0
		for _, s := range all {
			if s.ok {
				okAll++
			}
			if s.conf < th {
				routed++
			} else if s.ok {
				okKept++
			}
		}
		t.Logf("  %.2f    %5.1f%%      %5.1f%%            %5.1f%%              %5.1f%%",
			th, 100*float64(routed)/n, 100*float64(okAll)/n, 100*float64(okKept+routed)/n, 100*float64(okKept)/n)
	}

	provider := os.Getenv("HEARTH_EVAL_LLM")
	if provider == "" {
		return
	}
	var chat llm.Chat
	switch provider {
	case "openai":
		chat = llm.NewOpenAI(llm.OpenAIConfig{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_FAST_MODEL")})
	case "bedrock":
		b, err := llm.NewBedrock(context.Background(), llm.BedrockConfig{Region: os.Getenv("BEDROCK_REGION"), EndpointURL: os.Getenv("BEDROCK_ENDPOINT_URL"), ModelID: os.Getenv("BEDROCK_FAST_MODEL_ID")})
		if err != nil {
			t.Fatal(err)
		}
		chat = b
	default:
		t.Fatalf("HEARTH_EVAL_LLM %q: want openai or bedrock", provider)
	}
	m := &Models{Chat: chat, TurnDeadline: time.Minute}
	hybrid := m.Intent(stage.Classifier{Classifier: c})
	right, routed := 0, 0
	for _, s := range all {
		if s.conf >= m.confident() {
			if s.ok {
				right++
			}
			continue
		}
		routed++
		var recent []nlu.Turn
		if s.row.PrevBot != "" {
			recent = []nlu.Turn{{FromBot: true, Text: s.row.PrevBot, Options: s.row.Options}}
		}
		u, _ := hybrid.Understand(context.Background(), s.row.Text, recent, ref)
		if string(u.Intent) == s.row.Intent {
			right++
		}
	}
	t.Logf("with %s deciding the %d routed rows: intent accuracy %.1f%%", provider, routed, 100*float64(right)/n)
}
