package pipeline

import (
	"time"

	"github.com/hearthbot/hearth"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics counts what flows through the durable path. A nil *Metrics
// records nothing, so tests need not build one.
type Metrics struct {
	inbound    *prometheus.CounterVec
	turns      *prometheus.CounterVec
	turnTime   prometheus.Histogram
	deliveries *prometheus.CounterVec
	stages     *prometheus.HistogramVec
}

// NewMetrics registers the pipeline's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		inbound: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_inbound_events_total",
			Help: "Inbound events accepted, by channel and whether they were duplicates.",
		}, []string{"channel", "duplicate"}),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_turns_total",
			Help: "Turns handled, by outcome (ok, retry, failed).",
		}, []string{"outcome"}),
		turnTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "hearth_turn_duration_seconds",
			Help:    "Time spent in the turn handler.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 14),
		}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_deliveries_total",
			Help: "Delivery attempts, by channel and outcome.",
		}, []string{"channel", "outcome"}),
		stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "hearth_stage_duration_seconds",
			Help:    "Time spent in each stage of a turn (intent, context, action, respond, …), from the turn's trace.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16),
		}, []string{"stage"}),
	}
	reg.MustRegister(m.inbound, m.turns, m.turnTime, m.deliveries, m.stages)
	return m
}

func (m *Metrics) accepted(ch hearth.Channel, duplicate bool) {
	if m == nil {
		return
	}
	d := "false"
	if duplicate {
		d = "true"
	}
	m.inbound.WithLabelValues(string(ch), d).Inc()
}

func (m *Metrics) turn(outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.turns.WithLabelValues(outcome).Inc()
	m.turnTime.Observe(d.Seconds())
}

func (m *Metrics) delivery(ch hearth.Channel, outcome string) {
	if m == nil {
		return
	}
	m.deliveries.WithLabelValues(string(ch), outcome).Inc()
}

// ObserveTrace records the stage timings of a turn's trace.
func (m *Metrics) ObserveTrace(t hearth.Trace) {
	if m == nil {
		return
	}
	for stage, us := range t.Timings {
		m.stages.WithLabelValues(stage).Observe(float64(us) / 1e6)
	}
}
