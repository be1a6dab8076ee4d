// Package action is Hearth's action engine: typed, schema-validated
// actions, the risk policy that decides which need approval, execution
// keyed on (turn, index) so nothing happens twice, approvals, the audit
// trail and undo.
package action
