package fileimport

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/emersion/go-vcard"

	"github.com/hearthbot/hearth"
)

// VCardHeader is the header contacts are read into.
var VCardHeader = []string{"Name", "Birthday", "Phone", "Email", "Address", "Organization", "Note"}

// readVCard reads every card of a .vcf file: one row per contact,
// several phones, emails or addresses joined with "; ".
func readVCard(data []byte) (Table, error) {
	text, _, err := decodeText(data)
	if err != nil {
		return Table{}, err
	}
	dec := vcard.NewDecoder(strings.NewReader(text))
	t := Table{Format: VCard, Header: VCardHeader, HasHeader: true}
	for {
		card, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Table{}, hearth.Invalidf("the contacts file is broken after %d contacts: %v", len(t.Rows), shortErr(err))
		}
		if len(t.Rows) >= MaxRows {
			return Table{}, tooManyRows()
		}
		row := []string{
			cardName(card),
			card.Value(vcard.FieldBirthday),
			joinValues(card, vcard.FieldTelephone),
			joinValues(card, vcard.FieldEmail),
			cardAddresses(card),
			card.Value(vcard.FieldOrganization),
			joinValues(card, vcard.FieldNote),
		}
		if blank(row) {
			continue
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 && bytes.Contains(bytes.ToUpper(data), []byte("BEGIN:VCARD")) {
		return Table{}, hearth.Invalidf("the contacts file has no contact with a name, phone or email")
	}
	return t, nil
}

func cardName(c vcard.Card) string {
	if fn := strings.TrimSpace(c.PreferredValue(vcard.FieldFormattedName)); fn != "" {
		return fn
	}
	if n := c.Name(); n != nil {
		return strings.Join(strings.Fields(strings.Join([]string{n.HonorificPrefix, n.GivenName, n.AdditionalName, n.FamilyName, n.HonorificSuffix}, " ")), " ")
	}
	return ""
}

func joinValues(c vcard.Card, field string) string {
	var out []string
	for _, v := range c.Values(field) {
		if v = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, "tel:"), "mailto:")); v != "" {
			out = append(out, v)
		}
	}
	return strings.Join(out, "; ")
}

func cardAddresses(c vcard.Card) string {
	var out []string
	for _, a := range c.Addresses() {
		parts := []string{}
		for _, p := range []string{a.StreetAddress, a.ExtendedAddress, a.Locality, a.Region, a.PostalCode, a.Country} {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) > 0 {
			out = append(out, strings.Join(parts, ", "))
		}
	}
	return strings.Join(out, "; ")
}
