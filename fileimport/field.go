package fileimport

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Kind is what a file holds.
type Kind string

// The kinds of file an import understands.
const (
	People Kind = "people"
	Tasks  Kind = "tasks"
	Events Kind = "events"
	Facts  Kind = "facts"
)

// Field is what a column means.
type Field string

// The fields a column can map to. Note keeps the column's values as a
// note on the item ("Shoe size: 38"); Ignore drops the column.
const (
	Name         Field = "name"
	FirstName    Field = "first_name"
	LastName     Field = "last_name"
	Birthday     Field = "birthday"
	Phone        Field = "phone"
	Email        Field = "email"
	Address      Field = "address"
	Organization Field = "organization"
	Title        Field = "title"
	Due          Field = "due"
	Start        Field = "start"
	End          Field = "end"
	AllDay       Field = "all_day"
	Location     Field = "location"
	Description  Field = "description"
	Priority     Field = "priority"
	Status       Field = "status"
	Fact         Field = "fact"
	About        Field = "about"
	Note         Field = "note"
	Ignore       Field = "ignore"

	// date is a column of dates whose meaning depends on the kind:
	// a birthday for people, a due date for tasks, a start for events.
	date Field = "date"
)

// Label is a field's name in a question or summary.
func (f Field) Label() string {
	switch f {
	case FirstName:
		return "first name"
	case LastName:
		return "last name"
	case AllDay:
		return "all day"
	case Fact:
		return "a fact to remember"
	case About:
		return "who it's about"
	case Note:
		return "a note"
	case Ignore:
		return "ignored"
	}
	return string(f)
}

// KindFields are the fields offered for each kind of file, in the order
// questions show them.
var KindFields = map[Kind][]Field{
	People: {Name, FirstName, LastName, Birthday, Phone, Email, Address, Organization},
	Tasks:  {Title, Due, Priority, Status, Description},
	Events: {Title, Start, End, AllDay, Location, Description},
	Facts:  {Fact, About},
}

// synonyms are the header words of each field in English, German,
// French, Spanish, Italian, Dutch and Portuguese, as normalise leaves
// them (lower case, no accents, words split on punctuation).
var synonyms = map[Field][]string{
	Name: {"name", "full name", "fullname", "display name", "contact", "contact name", "person", "nom", "nom complet",
		"nombre", "nombre completo", "nome", "nome completo", "naam", "volledige naam", "vollstandiger name", "kontakt"},
	FirstName: {"first name", "firstname", "given name", "forename", "vorname", "prenom", "nombre de pila", "voornaam", "nome proprio", "primeiro nome"},
	LastName: {"last name", "lastname", "surname", "family name", "nachname", "familienname", "nom de famille", "apellido", "apellidos",
		"achternaam", "cognome", "sobrenome", "apelido"},
	Birthday: {"birthday", "birth date", "birthdate", "date of birth", "dob", "born", "bday", "geburtstag", "geburtsdatum", "geboren",
		"anniversaire", "date de naissance", "cumpleanos", "fecha de nacimiento", "verjaardag", "geboortedatum", "compleanno",
		"data di nascita", "aniversario", "data de nascimento"},
	Phone: {"phone", "phone number", "telephone", "tel", "mobile", "mobile phone", "cell", "cell phone", "handy", "telefon",
		"telefonnummer", "mobil", "mobilnummer", "portable", "numero de telephone", "telefono", "movil", "celular", "telefoon",
		"mobiel", "cellulare", "telemovel", "numero"},
	Email: {"email", "e mail", "mail", "email address", "e mail address", "e mail adresse", "emailadresse", "courriel",
		"adresse e mail", "adresse email", "correo", "correo electronico", "posta elettronica", "e mailadres"},
	Address: {"address", "home address", "street", "street address", "adresse", "anschrift", "strasse", "wohnort", "direccion",
		"domicilio", "adres", "indirizzo", "endereco", "morada"},
	Organization: {"company", "organization", "organisation", "employer", "firma", "unternehmen", "arbeitgeber", "entreprise",
		"societe", "empresa", "bedrijf", "azienda", "org"},
	Title: {"title", "task", "tasks", "todo", "to do", "subject", "summary", "item", "what", "event", "appointment", "aufgabe",
		"titel", "betreff", "termin", "tache", "titre", "objet", "evenement", "rendez vous", "tarea", "titulo", "asunto", "evento",
		"cita", "taak", "onderwerp", "afspraak", "compito", "titolo", "oggetto", "appuntamento", "tarefa", "assunto"},
	Due: {"due", "due date", "deadline", "due by", "due on", "by", "fallig", "falligkeit", "faellig", "frist", "bis wann",
		"echeance", "date limite", "vencimiento", "fecha limite", "plazo", "scadenza", "prazo", "data limite", "vervaldatum"},
	Start: {"start", "start date", "start time", "starts", "begin", "begins", "from", "beginn", "anfang", "startzeit", "debut",
		"date de debut", "heure de debut", "inicio", "fecha de inicio", "hora de inicio", "aanvang", "inizio", "data di inizio",
		"dtstart", "begindatum", "data de inicio"},
	End: {"end", "end date", "end time", "ends", "until", "to", "finish", "ende", "endzeit", "bis", "fin", "date de fin",
		"heure de fin", "fecha de fin", "hora de fin", "einde", "einddatum", "fine", "data di fine", "data de fim", "dtend"},
	AllDay: {"all day", "allday", "all day event", "ganztagig", "ganztags", "toute la journee", "todo el dia", "hele dag",
		"tutto il giorno", "dia inteiro"},
	Location: {"location", "place", "where", "venue", "ort", "lieu", "endroit", "lugar", "ubicacion", "locatie", "plaats",
		"luogo", "local"},
	Description: {"description", "details", "detail", "beschreibung", "descriptif", "descripcion", "beschrijving",
		"descrizione", "descricao"},
	Note: {"note", "notes", "comment", "comments", "remarks", "remark", "notiz", "notizen", "bemerkung", "bemerkungen",
		"kommentar", "anmerkung", "remarque", "remarques", "commentaire", "nota", "notas", "comentario", "comentarios",
		"opmerking", "opmerkingen", "notitie", "note personali", "observacoes"},
	Priority: {"priority", "prio", "importance", "prioritat", "wichtigkeit", "priorite", "prioridad", "prioriteit", "priorita",
		"prioridade"},
	Status: {"status", "done", "completed", "complete", "state", "finished", "erledigt", "fertig", "fait", "termine", "statut",
		"hecho", "estado", "completado", "klaar", "gedaan", "completato", "fatto", "concluido", "feito"},
	Fact: {"fact", "facts", "memory", "memories", "remember", "information", "info", "tatsache", "fakt", "fakten",
		"erinnerung", "souvenir", "recuerdo", "dato", "feit", "ricordo", "memoria", "lembranca"},
	About: {"about", "regarding", "concerning", "uber", "betrifft", "sujet", "a propos de", "sobre", "acerca de", "over",
		"riguardo", "su", "relationship", "relation", "beziehung"},
	date: {"date", "day", "when", "datum", "tag", "wann", "jour", "quand", "fecha", "dia", "cuando", "dag", "wanneer",
		"data", "giorno", "quando"},
}

// headerIndex maps a normalised header to its field.
var headerIndex = func() map[string]Field {
	m := map[string]Field{}
	for f, words := range synonyms {
		for _, w := range words {
			m[w] = f
		}
	}
	return m
}()

// headerField is the field a header names, exactly or by one of its
// words ("Mobile (work)" → phone).
func headerField(h string) (Field, bool) {
	n := normalise(h)
	if f, ok := headerIndex[n]; ok {
		return f, true
	}
	if f, ok := headerIndex[strings.ReplaceAll(n, " ", "")]; ok {
		return f, true
	}
	// The longest synonym the header starts or ends with, as whole words.
	best, bestLen := Field(""), 0
	for w, f := range headerIndex {
		if len(w) <= bestLen || len(w) < 3 {
			continue
		}
		if strings.HasPrefix(n, w+" ") || strings.HasSuffix(n, " "+w) || strings.Contains(n, " "+w+" ") {
			best, bestLen = f, len(w)
		}
	}
	return best, bestLen > 0
}

var stripMarks = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

// normalise lower-cases a header, drops accents ("Fällig" → "fallig") and
// splits it into words on anything that is not a letter or digit.
func normalise(h string) string {
	s, _, err := transform.String(stripMarks, h)
	if err != nil {
		s = h
	}
	s = strings.ReplaceAll(strings.ToLower(s), "ß", "ss")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}
