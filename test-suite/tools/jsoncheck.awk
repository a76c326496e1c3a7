# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# jsoncheck.awk: exit 0 when the input is exactly one well-formed JSON
# value (grammar of RFC 8259), else name the byte offset and exit 1.  A
# dependency-free check of report.json for machines without jq or python.
#
# usage: awk -f jsoncheck.awk FILE
{ s = s $0 "\n" }
END {
	n = length(s)
	pos = 1
	ws()
	value()
	ws()
	if (pos <= n)
		fail("data after the value")
	exit 0
}
function fail(m) {
	printf "jsoncheck: %s: offset %d: %s\n", FILENAME, pos - 1, m > "/dev/stderr"
	exit 1
}
function ws() {
	while (pos <= n && index(" \t\n\r", substr(s, pos, 1)) > 0)
		pos++
}
function value(  c) {
	c = substr(s, pos, 1)
	if (c == "{")
		return object()
	if (c == "[")
		return array()
	if (c == "\"")
		return string()
	if (substr(s, pos, 4) == "true" || substr(s, pos, 4) == "null") {
		pos += 4
		return
	}
	if (substr(s, pos, 5) == "false") {
		pos += 5
		return
	}
	if (match(substr(s, pos), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/) && RLENGTH > 0) {
		pos += RLENGTH
		return
	}
	fail("expected a value")
}
function string(  c) {
	pos++
	while (pos <= n) {
		c = substr(s, pos, 1)
		if (c == "\"") {
			pos++
			return
		}
		if (c == "\\") {
			c = substr(s, pos + 1, 1)
			if (c == "u") {
				if (!match(substr(s, pos + 2, 4), /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]$/))
					fail("bad \\u escape")
				pos += 6
				continue
			}
			if (index("\"\\/bfnrt", c) == 0 || c == "")
				fail("bad escape")
			pos += 2
			continue
		}
		if (c < " ")
			fail("control character in a string")
		pos++
	}
	fail("unterminated string")
}
function object() {
	pos++
	ws()
	if (substr(s, pos, 1) == "}") {
		pos++
		return
	}
	for (;;) {
		ws()
		if (substr(s, pos, 1) != "\"")
			fail("expected a member name")
		string()
		ws()
		if (substr(s, pos, 1) != ":")
			fail("expected ':'")
		pos++
		ws()
		value()
		ws()
		if (substr(s, pos, 1) == "}") {
			pos++
			return
		}
		if (substr(s, pos, 1) != ",")
			fail("expected ',' or '}'")
		pos++
	}
}
function array() {
	pos++
	ws()
	if (substr(s, pos, 1) == "]") {
		pos++
		return
	}
	for (;;) {
		ws()
		value()
		ws()
		if (substr(s, pos, 1) == "]") {
			pos++
			return
		}
		if (substr(s, pos, 1) != ",")
			fail("expected ',' or ']'")
		pos++
	}
}
