//! KIF, the syntax GDL is written in: `;` comments, symbols, variables
//! (`?x`) and parenthesised lists. This file reads text into [`Sexp`]s
//! with the line and column of each, and writes terms back in their one
//! normal form (`(move 1 1 1 2)`: lower case, single spaces), which is how
//! moves travel over the line protocol.
//!
//! GDL is case-insensitive, so symbols and variables are read in lower
//! case. A symbol is any run of characters other than white space,
//! parentheses and `;`; numbers are symbols too (`100`).

use std::fmt;

/// Where something is in the rules text, both from 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// An error in a rules text, at a place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

impl KifError {
    pub fn at(pos: Pos, message: impl Into<String>) -> KifError {
        KifError {
            pos,
            message: message.into(),
        }
    }
}

/// One expression as written: a symbol, a variable or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A constant or relation name, in lower case.
    Symbol(String, Pos),
    /// A variable, without its `?`, in lower case.
    Var(String, Pos),
    /// `( ... )`.
    List(Vec<Sexp>, Pos),
}

impl Sexp {
    pub fn pos(&self) -> Pos {
        match self {
            Sexp::Symbol(_, p) | Sexp::Var(_, p) | Sexp::List(_, p) => *p,
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Symbol(s, _) => f.write_str(s),
            Sexp::Var(v, _) => write!(f, "?{v}"),
            Sexp::List(items, _) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// How deep lists may nest: far more than any game needs, and few enough
/// that every recursive walk over a description stays within its stack.
pub const MAX_DEPTH: usize = 200;

/// Reads every expression of `text`.
pub fn parse(text: &str) -> Result<Vec<Sexp>, KifError> {
    let mut reader = Reader {
        chars: text.chars().peekable(),
        pos: Pos { line: 1, column: 1 },
    };
    let mut out = Vec::new();
    // open lists: their items so far and where they began
    let mut stack: Vec<(Vec<Sexp>, Pos)> = Vec::new();
    while let Some((token, pos)) = reader.token()? {
        let done = match token {
            Token::Open => {
                if stack.len() == MAX_DEPTH {
                    return Err(KifError::at(
                        pos,
                        format!("lists nest deeper than {MAX_DEPTH} levels here"),
                    ));
                }
                stack.push((Vec::new(), pos));
                continue;
            }
            Token::Close => match stack.pop() {
                Some((items, start)) => Sexp::List(items, start),
                None => return Err(KifError::at(pos, "`)` without a matching `(`")),
            },
            Token::Word(w) => match w.strip_prefix('?') {
                Some("") => return Err(KifError::at(pos, "`?` without a variable name")),
                Some(name) => Sexp::Var(name.to_string(), pos),
                None => Sexp::Symbol(w, pos),
            },
        };
        match stack.last_mut() {
            Some((items, _)) => items.push(done),
            None => out.push(done),
        }
    }
    match stack.last() {
        Some((_, start)) => Err(KifError::at(
            *start,
            "this `(` is never closed (the text ends first)",
        )),
        None => Ok(out),
    }
}

/// Reads one expression, the whole of `text` (a move sent by a bot).
pub fn parse_one(text: &str) -> Result<Sexp, KifError> {
    let mut all = parse(text)?;
    match all.len() {
        1 => Ok(all.pop().expect("one")),
        0 => Err(KifError::at(
            Pos { line: 1, column: 1 },
            "nothing is written",
        )),
        _ => Err(KifError::at(all[1].pos(), "more than one expression")),
    }
}

enum Token {
    Open,
    Close,
    Word(String),
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Reader<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn token(&mut self) -> Result<Option<(Token, Pos)>, KifError> {
        loop {
            match self.chars.peek() {
                None => return Ok(None),
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some(';') => while self.bump().is_some_and(|c| c != '\n') {},
                Some(_) => break,
            }
        }
        let pos = self.pos;
        match self.bump().expect("peeked") {
            '(' => Ok(Some((Token::Open, pos))),
            ')' => Ok(Some((Token::Close, pos))),
            c => {
                let mut word = String::new();
                word.extend(c.to_lowercase());
                while let Some(&c) = self.chars.peek() {
                    if c.is_whitespace() || matches!(c, '(' | ')' | ';') {
                        break;
                    }
                    word.extend(c.to_lowercase());
                    self.bump();
                }
                if word.chars().any(|c| c.is_control()) {
                    return Err(KifError::at(pos, "a control character in a symbol"));
                }
                Ok(Some((Token::Word(word), pos)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_variables_and_lists_read_with_their_places() {
        let text = "; a comment\n(role White)\n(<= (legal ?R (Mark ?x))\n    (true (cell ?x b)))";
        let all = parse(text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].to_string(), "(role white)");
        assert_eq!(all[0].pos(), Pos { line: 2, column: 1 });
        assert_eq!(
            all[1].to_string(),
            "(<= (legal ?r (mark ?x)) (true (cell ?x b)))"
        );
        let Sexp::List(items, _) = &all[1] else {
            panic!()
        };
        assert_eq!(items[2].pos(), Pos { line: 4, column: 5 });
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            ("(role x))", "line 1, column 9: `)` without a matching `(`"),
            (
                "(role x)\n  (init (cell 1 b)",
                "line 2, column 3: this `(` is never closed (the text ends first)",
            ),
            ("(p ? x)", "line 1, column 4: `?` without a variable name"),
        ];
        for (text, message) in cases {
            assert_eq!(parse(text).unwrap_err().to_string(), message, "{text}");
        }
    }

    #[test]
    fn one_expression_is_a_move() {
        assert_eq!(
            parse_one(" (MOVE 1  1 1 2) ").unwrap().to_string(),
            "(move 1 1 1 2)"
        );
        assert!(parse_one("noop noop").is_err());
        assert!(parse_one("").is_err());
    }
}
