//! The transcript format (see README.md beside this file): parsing a
//! transcript, matching replies against expectations, and checking GTP
//! framing. Included by `tests/transcripts.rs`; kept here, with the
//! transcripts it describes, so that the runner file stays small.

use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- format --

pub struct Transcript {
    pub path: PathBuf,
    pub args: Vec<String>,
    pub input: Vec<u8>,
    pub replies: Vec<ExpectedReply>,
}

pub struct ExpectedReply {
    /// Transcript line number and text of the command it answers.
    pub line_number: usize,
    pub command: String,
    pub lines: Vec<Expected>,
}

#[derive(Debug, PartialEq)]
pub enum Expected {
    Exact(String),
    /// The pattern as written, and parsed.
    Pattern(String, Vec<Piece>),
    /// `<...`: any number of further lines.
    Rest,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Token {
    Vertex,
    Vertices,
    Move,
    Cell,
    HexMove,
    Int,
    Number,
    Score,
    Text,
}

#[derive(Debug, PartialEq)]
pub enum Piece {
    Literal(String),
    Token(Token),
}

pub fn parse_transcript(path: &Path) -> Result<Transcript, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    let args = match lines.next() {
        Some((_, header)) if header.starts_with("#!") => {
            header[2..].split_whitespace().map(String::from).collect()
        }
        _ => return Err("line 1: missing `#! <arguments>` header".into()),
    };
    let mut transcript = Transcript {
        path: path.to_path_buf(),
        args,
        input: Vec::new(),
        replies: Vec::new(),
    };
    let mut last_command: Option<(usize, String)> = None;
    let mut reply_open = false;
    for (number, line) in lines {
        let at = |e: String| format!("line {number}: {e}");
        if line.starts_with("//") {
            continue;
        }
        let Some(expectation) = line.strip_prefix('<') else {
            transcript.input.extend(decode_escapes(line).map_err(at)?);
            transcript.input.push(b'\n');
            last_command = Some((number, line.to_string()));
            reply_open = false;
            continue;
        };
        let Some((line_number, command)) = last_command.clone() else {
            return Err(at("expected reply before any command".into()));
        };
        if !reply_open {
            transcript.replies.push(ExpectedReply {
                line_number,
                command,
                lines: Vec::new(),
            });
            reply_open = true;
        }
        let reply = transcript.replies.last_mut().expect("just pushed");
        if reply.lines.last() == Some(&Expected::Rest) {
            return Err(at("nothing may follow `<...` in a reply".into()));
        }
        let expected = if expectation == "..." {
            Expected::Rest
        } else if let Some(pattern) = expectation.strip_prefix('~') {
            let pattern = strip_one_space(pattern);
            Expected::Pattern(pattern.to_string(), parse_pattern(pattern).map_err(at)?)
        } else {
            Expected::Exact(strip_one_space(expectation).trim_end().to_string())
        };
        reply.lines.push(expected);
    }
    if transcript.replies.is_empty() {
        return Err("no expected replies".into());
    }
    Ok(transcript)
}

pub fn strip_one_space(text: &str) -> &str {
    text.strip_prefix(' ').unwrap_or(text)
}

/// Input escapes: `\\`, `\t`, `\r`, `\xHH` (any byte, for invalid UTF-8),
/// `\{N*TEXT}` (TEXT repeated N times, for over-long lines).
pub fn decode_escapes(line: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('\\') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let escape = &rest[at + 1..];
        let (bytes, used) = match escape.as_bytes().first() {
            Some(b'\\') => (vec![b'\\'], 1),
            Some(b't') => (vec![b'\t'], 1),
            Some(b'r') => (vec![b'\r'], 1),
            Some(b'x') => {
                let hex = escape.get(1..3).ok_or("`\\x` needs two hex digits")?;
                let byte = u8::from_str_radix(hex, 16).map_err(|_| format!("bad `\\x{hex}`"))?;
                (vec![byte], 3)
            }
            Some(b'{') => {
                let end = escape.find('}').ok_or("`\\{` without `}`")?;
                let (count, text) = escape[1..end].split_once('*').ok_or("`\\{N*TEXT}`")?;
                let count: usize = count.parse().map_err(|_| format!("bad count {count:?}"))?;
                (text.repeat(count).into_bytes(), end + 1)
            }
            _ => return Err(format!("unknown escape in {line:?}")),
        };
        out.extend(bytes);
        rest = &escape[used..];
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

pub fn parse_pattern(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{") {
            literal.push('{');
            rest = after;
        } else if let Some(after) = rest.strip_prefix("}}") {
            literal.push('}');
            rest = after;
        } else if c == '{' {
            let end = rest.find('}').ok_or("`{` without `}`")?;
            let token = match &rest[1..end] {
                "vertex" => Token::Vertex,
                "vertices" => Token::Vertices,
                "move" => Token::Move,
                "cell" => Token::Cell,
                "hexmove" => Token::HexMove,
                "int" => Token::Int,
                "number" => Token::Number,
                "score" => Token::Score,
                "text" => Token::Text,
                other => return Err(format!("unknown placeholder {{{other}}}")),
            };
            if !literal.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(&mut literal)));
            }
            pieces.push(Piece::Token(token));
            rest = &rest[end + 1..];
        } else {
            literal.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let literal = literal.trim_end().to_string();
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    Ok(pieces)
}

// -------------------------------------------------------------- matching --

pub fn matches_pattern(pieces: &[Piece], text: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    match first {
        Piece::Literal(literal) => text
            .strip_prefix(literal.as_str())
            .is_some_and(|after| matches_pattern(rest, after)),
        Piece::Token(token) => token_lengths(*token, text)
            .into_iter()
            .any(|len| matches_pattern(rest, &text[len..])),
    }
}

/// Every prefix length of `text` that is one `token`.
pub fn token_lengths(token: Token, text: &str) -> Vec<usize> {
    let one = |len: Option<usize>| len.into_iter().collect::<Vec<_>>();
    match token {
        Token::Text => (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect(),
        Token::Vertex => one(vertex_len(text)),
        Token::Move => one(vertex_len(text).or_else(|| word_len(text, &["PASS", "resign"]))),
        Token::Cell => one(cell_len(text)),
        Token::HexMove => one(cell_len(text).or_else(|| word_len(text, &["swap", "resign"]))),
        Token::Int => one(signed_digits_len(text)),
        Token::Number => one(number_len(text)),
        Token::Score => one(word_len(text, &["0"]).or_else(|| {
            let rest = text
                .strip_prefix("B+")
                .or_else(|| text.strip_prefix("W+"))?;
            number_len(rest).map(|n| n + 2)
        })),
        Token::Vertices => {
            let mut ends = Vec::new();
            let mut at = 0;
            while let Some(len) = vertex_len(&text[at..]) {
                ends.push(at + len);
                at += len;
                if !text[at..].starts_with(' ') {
                    break;
                }
                at += 1;
            }
            ends
        }
    }
}

pub fn digits_len(text: &str) -> usize {
    text.bytes().take_while(u8::is_ascii_digit).count()
}

pub fn signed_digits_len(text: &str) -> Option<usize> {
    let sign = usize::from(text.starts_with('-'));
    let digits = digits_len(&text[sign..]);
    (digits > 0).then_some(sign + digits)
}

pub fn number_len(text: &str) -> Option<usize> {
    let whole = signed_digits_len(text)?;
    let fraction = match text[whole..].strip_prefix('.') {
        Some(after) if digits_len(after) > 0 => 1 + digits_len(after),
        _ => 0,
    };
    Some(whole + fraction)
}

/// `A1`..`Z25` without `I`, upper case, no leading zero.
pub fn vertex_len(text: &str) -> Option<usize> {
    let letter = *text.as_bytes().first()?;
    if !letter.is_ascii_uppercase() || letter == b'I' {
        return None;
    }
    let digits = &text[1..1 + digits_len(&text[1..])];
    let value: u32 = digits.parse().ok()?;
    ((1..=25).contains(&value) && !digits.starts_with('0')).then_some(1 + digits.len())
}

/// `a1`-style Havannah cell, lower case, no leading zero.
pub fn cell_len(text: &str) -> Option<usize> {
    let letter = *text.as_bytes().first()?;
    let digits = &text[1..1 + digits_len(&text[1..])];
    let ok = letter.is_ascii_lowercase() && !digits.is_empty() && !digits.starts_with('0');
    ok.then_some(1 + digits.len())
}

pub fn word_len(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().find(|w| text.starts_with(*w)).map(|w| w.len())
}

pub fn reply_matches(expected: &[Expected], actual: &[String]) -> bool {
    let mut actual = actual.iter().map(|line| line.trim_end());
    for expectation in expected {
        match expectation {
            Expected::Rest => return true,
            Expected::Exact(text) => {
                if actual.next() != Some(text.as_str()) {
                    return false;
                }
            }
            Expected::Pattern(_, pieces) => {
                if !actual
                    .next()
                    .is_some_and(|line| matches_pattern(pieces, line))
                {
                    return false;
                }
            }
        }
    }
    actual.next().is_none()
}

/// Splits stdout into replies, enforcing GTP framing. Each reply is its
/// lines, without the terminating empty line.
pub fn split_replies(stdout: &str) -> Result<Vec<Vec<String>>, String> {
    let mut replies = Vec::new();
    let mut rest = stdout;
    while !rest.is_empty() {
        let Some(end) = rest.find("\n\n") else {
            return Err(format!("output ends inside a reply: {rest:?}"));
        };
        let lines: Vec<String> = rest[..end].split('\n').map(String::from).collect();
        check_framing(&lines)
            .map_err(|e| format!("reply {}: {e}: {lines:?}", replies.len() + 1))?;
        replies.push(lines);
        rest = &rest[end + 2..];
    }
    Ok(replies)
}

pub fn check_framing(lines: &[String]) -> Result<(), String> {
    let first = &lines[0];
    let after_mark = first
        .strip_prefix('=')
        .or_else(|| first.strip_prefix('?'))
        .ok_or("does not start with `=` or `?` (stray output on stdout?)")?;
    let after_id = after_mark.trim_start_matches(|c: char| c.is_ascii_digit());
    let body = after_id
        .strip_prefix(' ')
        .ok_or("no space after `=`/`?` and id")?;
    if body != body.trim_end() || body.starts_with(' ') {
        return Err("stray white space in the first line".into());
    }
    for line in &lines[1..] {
        if line.is_empty() || line.trim_end() != line {
            return Err("empty line or trailing white space inside the reply".into());
        }
    }
    if lines.iter().any(|line| line.chars().any(char::is_control)) {
        return Err("control character in the reply".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode() {
        assert_eq!(decode_escapes(r"a\tb\r\\").unwrap(), b"a\tb\r\\");
        assert_eq!(decode_escapes(r"x\xff\x00").unwrap(), b"x\xff\x00");
        assert_eq!(decode_escapes(r"\{3*ab}c").unwrap(), b"abababc");
        for bad in [r"\q", r"\x1", r"\xzz", r"\{3ab}", r"\{x*a}", "\\"] {
            assert!(decode_escapes(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn patterns_match() {
        let check =
            |pattern: &str, text: &str| matches_pattern(&parse_pattern(pattern).unwrap(), text);
        assert!(check("= {vertex}", "= D4"));
        assert!(check("= {vertex}", "= T19"));
        assert!(!check("= {vertex}", "= I4"));
        assert!(!check("= {vertex}", "= D26"));
        assert!(!check("= {vertex}", "= d4"));
        assert!(check("= {move}", "= PASS"));
        assert!(check("= {move}", "= resign"));
        assert!(check("= {vertices}", "= C3 G7 E5"));
        assert!(!check("= {vertices}", "= C3  G7"));
        assert!(check("= {vertex} {vertex}", "= C3 G7"));
        assert!(check("= {score}", "= B+3.5"));
        assert!(check("= {score}", "= 0"));
        assert!(!check("= {score}", "= B+"));
        assert!(check("= {hexmove}", "= swap"));
        assert!(check("= {cell}", "= c10"));
        assert!(check("= {int} stones", "= -3 stones"));
        assert!(check("= {number}", "= 6.5"));
        assert!(check("= (;{text}", "= (;GM[1]SZ[9])"));
        assert!(check("{{x}}", "{x}"));
        assert!(parse_pattern("{nonsense}").is_err());
    }

    #[test]
    fn framing_is_enforced() {
        let ok = split_replies("= \n\n=1 D4\n\n? syntax error\n\n= \n  A B\n 1 . . 1\n\n").unwrap();
        assert_eq!(ok.len(), 4);
        assert_eq!(ok[3], vec!["= ", "  A B", " 1 . . 1"]);
        for bad in [
            "=\n\n",
            "= D4 \n\n",
            "=1D4\n\n",
            "hello\n= \n\n",
            "= \n\n\n",
            "= D4\n",
            "= a\n \n\n",
            "= a\r\n\n",
        ] {
            assert!(split_replies(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn replies_compare_line_by_line() {
        let expected = vec![
            Expected::Exact("= ".trim_end().into()),
            Expected::Exact("a".into()),
            Expected::Rest,
        ];
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(reply_matches(&expected, &lines(&["= ", "a"])));
        assert!(reply_matches(&expected, &lines(&["= ", "a", "b", "c"])));
        assert!(!reply_matches(&expected, &lines(&["= ", "b"])));
        let exact = vec![Expected::Exact("= D4".into())];
        assert!(!reply_matches(&exact, &lines(&["= D4", "extra"])));
    }
}
