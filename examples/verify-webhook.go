// verify-webhook.go: verifying the service's webhooks in Go 1.18 or later, standard library only.
//
// As a library: copy VerifySignatureV1, VerifySignatureV2 and VerifyWebhook into your package.
// As a receiver for trying webhooks on your machine (prints every verified event):
//
//	WEBHOOK_SECRET=whsec_… go run examples/verify-webhook.go      # listens on 127.0.0.1:4000 (PORT)
//
// WEBHOOK_CLOCK_OFFSET=<seconds> judges X-Timestamp against this machine's clock plus that many seconds:
// a sandbox whose clock was advanced stamps its webhooks with its own time (GET /api/admin/v1/sandbox/clock).
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"sync"
	"time"
)

const toleranceSeconds = 300

var timestampRe = regexp.MustCompile(`^\d{1,12}$`)

// hmacHex is HMAC-SHA256 in lowercase hex. The key is the whole secret, "whsec_" prefix included.
func hmacHex(secret string, parts ...[]byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	for _, p := range parts {
		m.Write(p)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// VerifySignatureV1: X-Signature = HMAC-SHA256(secret, raw body).
func VerifySignatureV1(secret string, rawBody []byte, signature string) bool {
	return hmac.Equal([]byte(hmacHex(secret, rawBody)), []byte(signature)) // constant time
}

// VerifySignatureV2: X-Signature-V2 = HMAC-SHA256(secret, X-Timestamp + "." + raw body).
func VerifySignatureV2(secret, timestamp string, rawBody []byte, signature string) bool {
	return hmac.Equal([]byte(hmacHex(secret, []byte(timestamp+"."), rawBody)), []byte(signature))
}

// VerifyWebhook checks the timestamp (300 s around the reference time now, by default time.Now()) and both
// signatures over the raw bytes, then decodes the body.
func VerifyWebhook(secret string, header http.Header, rawBody []byte, now time.Time) (map[string]any, error) {
	ts := header.Get("X-Timestamp")
	if !timestampRe.MatchString(ts) {
		return nil, errors.New("missing or malformed X-Timestamp")
	}
	sent, _ := strconv.ParseInt(ts, 10, 64)
	if d := now.Unix() - sent; d > toleranceSeconds || d < -toleranceSeconds {
		return nil, errors.New("X-Timestamp outside the 300 s window")
	}
	if !VerifySignatureV2(secret, ts, rawBody, header.Get("X-Signature-V2")) {
		return nil, errors.New("bad X-Signature-V2")
	}
	if !VerifySignatureV1(secret, rawBody, header.Get("X-Signature")) {
		return nil, errors.New("bad X-Signature")
	}
	var event map[string]any // decode only after the bytes are verified
	if err := json.Unmarshal(rawBody, &event); err != nil {
		return nil, err
	}
	return event, nil
}

// --- run as a program ------------------------------------------------------------------------------

// check (-check): verifies the cases of a JSON array on stdin ({secret, headers, body_hex, now}).
func check() {
	var cases []struct {
		Secret  string            `json:"secret"`
		Headers map[string]string `json:"headers"`
		BodyHex string            `json:"body_hex"`
		Now     int64             `json:"now"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		log.Fatal(err)
	}
	type result struct {
		V1    bool    `json:"v1"`
		V2    bool    `json:"v2"`
		OK    bool    `json:"ok"`
		Event *string `json:"event"`
		Error *string `json:"error"`
	}
	results := []result{}
	for _, c := range cases {
		h := http.Header{}
		for k, v := range c.Headers {
			h.Set(k, v)
		}
		raw, _ := hex.DecodeString(c.BodyHex)
		r := result{V1: VerifySignatureV1(c.Secret, raw, h.Get("X-Signature")), V2: VerifySignatureV2(c.Secret, h.Get("X-Timestamp"), raw, h.Get("X-Signature-V2"))}
		if event, err := VerifyWebhook(c.Secret, h, raw, time.Unix(c.Now, 0)); err != nil {
			msg := err.Error()
			r.Error = &msg
		} else {
			kind, _ := event["event"].(string)
			r.OK, r.Event = true, &kind
		}
		results = append(results, r)
	}
	json.NewEncoder(os.Stdout).Encode(results)
}

func serve() {
	secret := os.Getenv("WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("Set WEBHOOK_SECRET to the secret the dashboard showed (whsec_…).")
	}
	offset, _ := strconv.ParseInt(os.Getenv("WEBHOOK_CLOCK_OFFSET"), 10, 64)
	port := os.Getenv("PORT")
	if port == "" {
		port = "4000"
	}
	var seen sync.Map // durable storage (a table with a unique key on the id) in production
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		event, err := VerifyWebhook(secret, r.Header, raw, time.Now().Add(time.Duration(offset)*time.Second))
		if err != nil {
			fmt.Printf("refused: %v\n", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		id := r.Header.Get("X-Webhook-Id")
		if _, dup := seen.LoadOrStore(id, true); !dup { // a duplicate is acknowledged and not handled again
			orderID, ok := event["order_id"].(string)
			if !ok {
				orderID = "-"
			}
			fmt.Printf("verified %v %s (X-Webhook-Id %s)\n", event["event"], orderID, id)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	fmt.Printf("listening on http://127.0.0.1:%s/webhook\n", port)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-check" {
		check()
		return
	}
	serve()
}
