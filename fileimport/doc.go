// Package fileimport reads the files people bring (CSV and TSV in any
// common encoding, XLSX workbooks, vCard contacts, iCalendar calendars)
// into one shape, a Table of text cells under a header, and understands
// it: what the file holds (people, tasks, events or facts) and which
// column means which field, each with a confidence, from header words in
// several languages, the look of the values and mappings learned from the
// user's earlier imports. Items turns the rows into what Hearth stores,
// and is the one place that mapping lives.
//
// It does no I/O beyond the bytes it is given: the conversation around an
// import (questions, approval, undo) is package imports, and the writes
// are the store's.
package fileimport
