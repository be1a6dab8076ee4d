// Package llm is Hearth's model layer: chat completions with structured
// JSON output and tool use, and text embeddings, from Amazon Bedrock or any
// OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp).
//
// The pipeline never depends on a model being there. Every provider follows
// one policy so callers can plan around it:
//
//   - each model call has its own timeout (Policy.Timeout);
//   - 429 and 5xx answers are retried with backoff, honouring Retry-After,
//     at most Policy.MaxAttempts times; the SDKs' own retryers are off so
//     the policy is this package's alone;
//   - a Request with a Schema gets an answer validated against it; invalid
//     output is sent back once for repair, then fails with ErrInvalidOutput;
//   - failures wrap a sentinel (ErrTimeout, ErrRateLimited, ErrUnavailable,
//     ErrInvalidOutput) that tells the caller to fall back.
//
// A Chain tries providers in order; the caller ends it with the offline
// engine, which lives outside this package. Instrumented and
// InstrumentedEmbedder wrap a provider to export Prometheus metrics by
// provider, model and stage (WithStage labels a call), and name the model
// that answered. The llmtest package is a fake server speaking both
// providers' APIs, for tests anywhere in Hearth. Untrusted text (email bodies,
// calendar descriptions, web pages) goes into prompts through Quote, as
// data, never as instructions.
package llm
