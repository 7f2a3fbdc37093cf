package s3

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The generated payloads stand for the write-up's two messages: an HTML e-mail built from a
// template (a styled table whose rows differ in a few words and numbers, so gzip finds the
// repetition it finds in a real templated mail: about −96%), and an SMS (one short sentence
// that gzip cannot shrink by the 18 bytes its header and trailer add). The same seed gives the
// same bytes.

var (
	mailWords = strings.Fields("order invoice payment delivery shipping account customer discount coupon member " +
		"confirmed pending completed refunded express standard parcel package voucher subscription")
	smsTexts = []string{
		"Your code is %06d. It expires in 10 minutes. Do not share it with anyone.",
		"Order %06d shipped today; track it in the app. Reply STOP to opt out.",
		"Reminder: appointment %d is tomorrow at 10:30. Reply C to confirm it.",
		"Payment of %d.00 EUR received, thank you. Your balance is up to date.",
	}
)

const (
	mailHead = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Your order</title></head>` +
		`<body style="margin:0;padding:0;background-color:#f4f4f4;font-family:Arial,Helvetica,sans-serif">` +
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#ffffff;max-width:600px;margin:0 auto">` + "\n"
	mailRow = `<tr><td style="padding:8px 16px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:20px;color:#333333;border-bottom:1px solid #eeeeee">%s %s</td>` +
		`<td align="right" style="padding:8px 16px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:20px;color:#333333;border-bottom:1px solid #eeeeee">%d.%02d EUR</td></tr>` + "\n"
	mailTail = `</table><p style="font-size:12px;color:#999999;text-align:center">You receive this e-mail because you ordered from us. Unsubscribe in your settings.</p></body></html>` + "\n"
)

// mailPayload is sizeBytes of a templated HTML e-mail.
func mailPayload(sizeBytes int, seed int64) []byte {
	random := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	var b strings.Builder
	b.Grow(sizeBytes + len(mailRow) + len(mailTail))
	b.WriteString(mailHead)
	for b.Len() < sizeBytes-len(mailTail) {
		fmt.Fprintf(&b, mailRow, mailWords[random.IntN(len(mailWords))], mailWords[random.IntN(len(mailWords))], random.IntN(500), random.IntN(100))
	}
	b.WriteString(mailTail)
	return cut(b.String(), sizeBytes)
}

// smsPayload is sizeBytes of text messages, one after another (one is about 70 bytes).
func smsPayload(sizeBytes int, seed int64) []byte {
	random := rand.New(rand.NewPCG(uint64(seed), 0x5e5))
	var b strings.Builder
	for b.Len() < sizeBytes {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, smsTexts[random.IntN(len(smsTexts))], random.IntN(1_000_000))
	}
	return cut(b.String(), sizeBytes)
}

// cut keeps the first n bytes (ASCII only, so the cut lands on n exactly).
func cut(s string, n int) []byte { return []byte(s[:min(n, len(s))]) }
