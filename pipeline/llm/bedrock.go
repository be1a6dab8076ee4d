package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"

	"github.com/hearthbot/hearth/internal/awsconf"
)

// answerTool is the tool Bedrock is made to call to answer with JSON: Claude
// follows a tool's input schema far more reliably than a prompt, so a
// request's Schema becomes this tool's input schema.
const answerTool = "answer"

// defaultTitanModel is Titan Text Embeddings V2.
const defaultTitanModel = "amazon.titan-embed-text-v2:0"

// BedrockConfig configures an Amazon Bedrock provider.
type BedrockConfig struct {
	// Region is the AWS region, e.g. us-east-1. Defaults to the SDK's
	// chain (AWS_REGION, shared config).
	Region string
	// ModelID answers requests that name none, e.g. a Claude model or
	// inference profile id. Required unless every Request sets Model.
	ModelID string
	// EmbeddingModelID is used by Embed. Defaults to
	// amazon.titan-embed-text-v2:0.
	EmbeddingModelID string
	// Dimensions is the Titan vector size (256, 512 or 1024); zero leaves
	// the model's default of 1024.
	Dimensions int
	// EndpointURL replaces the regional endpoint; tests point it at a fake.
	EndpointURL string
	// Credentials signs requests. Defaults to the SDK's default chain
	// (environment, shared files, SSO, instance and container roles).
	Credentials aws.CredentialsProvider
	// HTTPClient sends the requests. Defaults to the SDK's client.
	HTTPClient *http.Client
	// Policy sets timeouts and retries.
	Policy
}

// Bedrock is a Chat (Converse API) and Embedder (Titan via InvokeModel)
// backed by Amazon Bedrock.
type Bedrock struct {
	cfg    BedrockConfig
	client *bedrockruntime.Client
}

var (
	_ Chat     = (*Bedrock)(nil)
	_ Embedder = (*Bedrock)(nil)
)

// NewBedrock returns a provider for cfg. Without cfg.Credentials it loads
// the SDK's default configuration, which reads the environment and shared
// files but makes no request.
func NewBedrock(ctx context.Context, cfg BedrockConfig) (*Bedrock, error) {
	apply := func(o *bedrockruntime.Options) {
		// Our Policy retries; the SDK's retryer would multiply attempts
		// and sleep on its own clock.
		o.Retryer = aws.NopRetryer{}
		o.RetryMaxAttempts = 0
		if cfg.EndpointURL != "" {
			o.BaseEndpoint = aws.String(cfg.EndpointURL)
		}
		if cfg.HTTPClient != nil {
			o.HTTPClient = cfg.HTTPClient
		}
	}
	awsCfg, err := awsconf.Load(ctx, cfg.Region, cfg.Credentials)
	if err != nil {
		return nil, fmt.Errorf("llm: bedrock: %w", err)
	}
	return &Bedrock{cfg: cfg, client: bedrockruntime.NewFromConfig(awsCfg, apply)}, nil
}

// Complete sends r through the Converse API. A Schema becomes a forced
// call to an "answer" tool whose input is the JSON answer; with Tools as
// well, the model must call one of them or the answer tool.
func (b *Bedrock) Complete(ctx context.Context, r Request) (Response, error) {
	model := cmp.Or(r.Model, b.cfg.ModelID)
	if model == "" {
		return Response{}, fmt.Errorf("llm: bedrock: %w: no model configured", ErrUnavailable)
	}
	return complete(ctx, b.cfg.Policy, "bedrock "+model, r, func(ctx context.Context, r Request) (Response, error) {
		in, err := converseInput(model, r)
		if err != nil {
			return Response{}, permanent(err)
		}
		out, err := b.client.Converse(ctx, in)
		if err != nil {
			return Response{}, err
		}
		resp, err := converseResponse(out)
		if err != nil {
			return Response{}, permanent(err)
		}
		return resp, nil
	}, inspectAWS)
}

func converseInput(model string, r Request) (*bedrockruntime.ConverseInput, error) {
	in := &bedrockruntime.ConverseInput{ModelId: aws.String(model)}
	for _, m := range r.Messages {
		if m.Role == RoleSystem {
			in.System = append(in.System, &types.SystemContentBlockMemberText{Value: m.Text})
			continue
		}
		role := types.ConversationRoleUser
		if m.Role == RoleAssistant {
			role = types.ConversationRoleAssistant
		}
		block := &types.ContentBlockMemberText{Value: m.Text}
		// Converse wants roles to alternate; merge runs of one role (a
		// repair appends to whatever the caller sent).
		if n := len(in.Messages); n > 0 && in.Messages[n-1].Role == role {
			in.Messages[n-1].Content = append(in.Messages[n-1].Content, block)
			continue
		}
		in.Messages = append(in.Messages, types.Message{Role: role, Content: []types.ContentBlock{block}})
	}
	if r.MaxTokens > 0 {
		in.InferenceConfig = &types.InferenceConfiguration{MaxTokens: aws.Int32(int32(min(r.MaxTokens, 1<<30)))}
	}
	if len(r.Tools) == 0 && r.Schema == nil {
		return in, nil
	}
	tc := &types.ToolConfiguration{}
	for _, t := range r.Tools {
		if t.Name == answerTool && r.Schema != nil {
			return nil, fmt.Errorf("tool name %q is reserved for schema answers", answerTool)
		}
		spec, err := toolSpec(t.Name, t.Description, t.Schema)
		if err != nil {
			return nil, err
		}
		tc.Tools = append(tc.Tools, spec)
	}
	if r.Schema != nil {
		spec, err := toolSpec(answerTool, "Give your answer. Always answer by calling this tool.", r.Schema)
		if err != nil {
			return nil, err
		}
		tc.Tools = append(tc.Tools, spec)
		if len(r.Tools) == 0 {
			tc.ToolChoice = &types.ToolChoiceMemberTool{Value: types.SpecificToolChoice{Name: aws.String(answerTool)}}
		} else {
			tc.ToolChoice = &types.ToolChoiceMemberAny{}
		}
	}
	in.ToolConfig = tc
	return in, nil
}

func toolSpec(name, description string, schema json.RawMessage) (types.Tool, error) {
	// Bedrock requires an input schema; a tool without arguments gets an
	// empty object.
	var s any = map[string]any{"type": "object", "properties": map[string]any{}}
	if schema != nil {
		if err := json.Unmarshal(schema, &s); err != nil {
			return nil, fmt.Errorf("tool %q schema: %w", name, err)
		}
	}
	spec := types.ToolSpecification{
		Name:        aws.String(name),
		InputSchema: &types.ToolInputSchemaMemberJson{Value: document.NewLazyDocument(s)},
	}
	if description != "" {
		spec.Description = aws.String(description)
	}
	return &types.ToolMemberToolSpec{Value: spec}, nil
}

func converseResponse(out *bedrockruntime.ConverseOutput) (Response, error) {
	var resp Response
	if out.Usage != nil {
		resp.Usage.InputTokens = int(aws.ToInt32(out.Usage.InputTokens))
		resp.Usage.OutputTokens = int(aws.ToInt32(out.Usage.OutputTokens))
	}
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok {
		return resp, nil // no message: an empty answer
	}
	for _, block := range msg.Value.Content {
		switch b := block.(type) {
		case *types.ContentBlockMemberText:
			resp.Text += b.Value
		case *types.ContentBlockMemberToolUse:
			var input json.RawMessage
			if b.Value.Input != nil {
				raw, err := b.Value.Input.MarshalSmithyDocument()
				if err != nil {
					return resp, fmt.Errorf("reading tool input: %w", err)
				}
				input = raw
			}
			if aws.ToString(b.Value.Name) == answerTool {
				resp.JSON = input
				continue
			}
			resp.ToolCalls = append(resp.ToolCalls, ToolCall{
				ID:        aws.ToString(b.Value.ToolUseId),
				Name:      aws.ToString(b.Value.Name),
				Arguments: input,
			})
		}
	}
	return resp, nil
}

// titanRequest and titanResponse are the Titan Text Embeddings V2 wire
// format.
type titanRequest struct {
	InputText  string `json:"inputText"`
	Dimensions int    `json:"dimensions,omitempty"`
	Normalize  bool   `json:"normalize"`
}

type titanResponse struct {
	Embedding           []float32 `json:"embedding"`
	InputTextTokenCount int       `json:"inputTextTokenCount"`
}

// Embed embeds each text with one InvokeModel call, since Titan takes one
// text per request. Vectors are normalised, as cosine distance expects.
func (b *Bedrock) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	model := cmp.Or(b.cfg.EmbeddingModelID, defaultTitanModel)
	p := b.cfg.Policy
	start := p.now()
	var used Usage
	out := make([][]float32, 0, len(texts))
	for i, text := range texts {
		body, err := json.Marshal(titanRequest{InputText: text, Dimensions: b.cfg.Dimensions, Normalize: true})
		if err != nil {
			return nil, used, fmt.Errorf("llm: bedrock embeddings %s: %w", model, err)
		}
		var vec []float32
		_, u, err := p.retry(ctx, func(ctx context.Context) (Response, error) {
			res, err := b.client.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{
				ModelId:     aws.String(model),
				Body:        body,
				ContentType: aws.String("application/json"),
				Accept:      aws.String("application/json"),
			})
			if err != nil {
				return Response{}, err
			}
			var tr titanResponse
			if err := json.Unmarshal(res.Body, &tr); err != nil {
				return Response{}, permanent(fmt.Errorf("%w: reading Titan answer: %w", ErrInvalidOutput, err))
			}
			if len(tr.Embedding) == 0 {
				return Response{}, permanent(fmt.Errorf("%w: Titan returned no vector", ErrInvalidOutput))
			}
			vec = tr.Embedding
			return Response{Usage: Usage{InputTokens: tr.InputTextTokenCount}}, nil
		}, inspectAWS)
		used = used.Add(u)
		if err != nil {
			used.Latency = p.now().Sub(start)
			return nil, used, fmt.Errorf("llm: bedrock embeddings %s, text %d: %w", model, i, err)
		}
		out = append(out, vec)
	}
	used.Latency = p.now().Sub(start)
	return out, used, nil
}

func inspectAWS(err error) httpFailure {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		f := httpFailure{status: re.HTTPStatusCode(), ok: true}
		if re.Response != nil && re.Response.Response != nil {
			f.header = re.Response.Header
		}
		return f
	}
	return httpFailure{}
}
