//go:build ignore

// gen_common_passwords writes common_passwords.txt, the list of passwords
// sign-up refuses as too common (docs/decisions.md 85). Run it from
// internal/auth with `go run gen_common_passwords.go` after changing the
// word lists below.
//
// The list is composed for edgeflow: the passwords and password bases that
// top every published analysis of leaked password sets (names, sports,
// animals, pop culture, keyboard walks, digit runs), the service's own
// words, and the variations people make of them (a trailing number, year or
// "!", simple letter-for-digit swaps). Only entries of at least
// auth.MinPasswordLen characters are kept: shorter ones are refused anyway.
package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
)

// whole are frequent passwords kept as they are (besides the variants).
var whole = strings.Fields(`
12345678 123456789 1234567890 12345678910 0123456789 87654321 987654321 9876543210
11111111 111111111 1111111111 00000000 000000000 0000000000 12341234 11223344 12121212
123123123 123321123 112233445566 11112222 12344321 1234512345 147258369 159753123
123456789a 1234567890a a123456789 abc12345 abcd1234 abcdefgh abcdefg1 abc123456
qwertyui qwertyuiop qwerty123 qwerty1234 qwertyu1 1qaz2wsx 1q2w3e4r 1q2w3e4r5t
1q2w3e4r5t6y zaq12wsx zaq1zaq1 qazwsxedc qazwsx123 asdfghjk asdfghjkl asdf1234
zxcvbnm1 zxcvbnm123 zxcvbnma qweasdzxc 1qazxsw2 q1w2e3r4 q1w2e3r4t5 a1b2c3d4
1a2b3c4d passw0rd p@ssword p@ssw0rd pa$$word pa55word passwort motdepasse contrasena
iloveyou iloveyou1 iloveyou2 iloveu123 letmein1 letmein123 trustno1 trustnoone
welcome1 welcome123 changeme changeme1 changeme123 default1 password password1
password12 password123 password1234 passwords secret123 administrator admin123
admin1234 adminadmin rootroot root1234 toortoor guest123 testtest test1234 testing1
testing123 login123 master123 access14 whatever whatever1 nothing1 computer
computer1 internet internet1 football baseball basketball soccer123 hockey123
superman batman123 spiderman starwars starwars1 pokemon1 pokemon123 princess
princess1 sunshine sunshine1 shadow123 dragon123 monkey123 michael1 jennifer
jessica1 charlie1 jordan23 mustang1 harley123 liverpool chelsea1 arsenal1
manchester barcelona realmadrid juventus iloveyou! qwerty!@ 1qaz!qaz !qaz2wsx
!qaz@wsx #edc4rfv zaq!2wsx p4ssw0rd p455w0rd letmeinnow opensesame
fuckyou1 fuckoff1 asshole1 bitch123 123abc123 aaaaaaaa abcabcabc
`)

// bases are words people build passwords on; each is kept with its variants.
var bases = strings.Fields(`
password passwort passwd pass qwerty qwertz azerty asdf zxcv letmein welcome admin
administrator root user guest test login master access secret private default
changeme trustno1 iloveyou loveyou love lovely loveme baby babygirl babyboy angel
angels princess prince queen king kingdom sunshine shadow dragon monkey donkey
tiger lion eagle falcon wolf wolves bear bears panther panthers dolphin dolphins
cheese chicken cookie cookies butter pepper ginger honey sugar candy chocolate
banana orange apple cherry peaches pumpkin coffee summer winter spring autumn
football baseball basketball soccer hockey golf tennis boxing racing runner
michael jennifer jessica jordan ashley daniel andrew joshua matthew anthony
charlie robert thomas william richard joseph george hunter amanda nicole michelle
melissa stephanie samantha elizabeth victoria natalie hannah maggie ginger buster
buddy bailey max maxwell lucky rocky snoopy tigger pepper harley molly sophie
superman batman spiderman ironman hulk starwars jedi yoda vader pokemon pikachu
naruto goku mario zelda minecraft fortnite roblox matrix hello hello123 hellokitty
freedom liberty america canada london paris berlin dallas chicago boston texas
florida california newyork brooklyn jesus christ heaven blessed faith
mustang corvette ferrari porsche mercedes yamaha harley honda toyota nissan
computer internet server network system windows linux ubuntu google facebook
twitter youtube samsung iphone android apple microsoft
whatever nothing nobody someone something forever always never friends friend
family mother father sister brother daddy mommy mama papa
killer hacker gamer player legend champion winner loser rockstar soldier
money dollar cash rich diamond silver golden gold
magic wizard merlin phoenix thunder lightning storm hurricane tornado
flower flowers rose daisy lily butterfly rainbow purple yellow orange green
blue black white red pink
music guitar piano drummer singer dancer
shit fuck fuckyou fuckoff bitch asshole sexy hottie
chelsea arsenal liverpool manchester united barcelona madrid juventus milan
cowboys yankees lakers steelers packers patriots eagles bulls celtics redsox
mickey minnie donald disney cinderella barbie
jasmine amber crystal destiny diamond charlotte olivia emily emma
justin austin tyler kevin brandon jason eric steven brian chris alex
edgeflow cloudflare workflow workflows workers serverless deploy
`)

var suffixes = strings.Fields(`
1 2 12 13 21 22 23 69 99 00 01 007 11 123 1234 12345 123456 1! ! 123! 2000 2020 2023
2024 2025 2026
`)

// swaps are the letter-for-symbol substitutions people make.
var swaps = []struct{ from, to string }{{"a", "@"}, {"o", "0"}, {"s", "$"}, {"e", "3"}, {"i", "1"}}

func main() {
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.ToLower(p)
		if len([]rune(p)) >= 8 && len(p) <= 72 {
			seen[p] = true
		}
	}
	for _, p := range whole {
		add(p)
	}
	for _, b := range bases {
		for _, s := range suffixes {
			add(b + s)
		}
		for _, form := range []string{b, b + b, "my" + b, "ilove" + b} {
			add(form)
			add(form + "1")
			add(form + "123")
		}
		swapped := b
		for _, sw := range swaps {
			swapped = strings.ReplaceAll(swapped, sw.from, sw.to)
			add(swapped)
			add(swapped + "1")
			add(swapped + "123")
		}
	}
	// Runs of one character and of short cycles.
	for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789" {
		for n := 8; n <= 12; n++ {
			add(strings.Repeat(string(c), n))
		}
	}
	for _, unit := range strings.Fields("12 123 1234 abc ab qw asd 69 007 xo ha lol") {
		for r := strings.Repeat(unit, 2); len(r) <= 16; r += unit {
			add(r)
		}
	}
	list := make([]string, 0, len(seen))
	for p := range seen {
		list = append(list, p)
	}
	slices.Sort(list)
	f, err := os.Create("common_passwords.txt")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	for _, p := range list {
		fmt.Fprintln(w, p)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(len(list), "passwords")
}
