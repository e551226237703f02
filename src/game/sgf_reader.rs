//! The SGF syntax (`FF[4]` collections), reduced to what loading a game needs:
//! the properties of the main line of the first game tree. Shared by the Go
//! records (`go::sgf`) and LittleGolem's Havannah records (`havannah::hgf`).
//!
//! Written as one loop over the bytes with a depth counter, never recursion,
//! and producing a flat list of nodes, never a tree: a record is untrusted
//! input, and a recursive parser (or the recursive drop of a tree with one
//! level per move) overflows the stack on a long game or deep nesting. Side
//! variations are checked for syntax and skipped.

/// One property: its identifier (upper-case letters) and its values, with
/// SGF escapes removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

/// The properties of one node, in file order.
pub type Node = Vec<Property>;

/// Most nodes a main line may have. The longest professional Go games have
/// about 400 moves and a Havannah board at most 271 cells; the cap keeps
/// the replay of a hostile record (each move keeps a position for `undo`)
/// within memory.
pub const MAX_MAIN_LINE_NODES: usize = 5_000;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfSyntaxError {
    #[error("no game tree")]
    NoGameTree,
    #[error("unexpected {found:?} at byte {at}")]
    Unexpected { found: char, at: usize },
    #[error("a game tree without a node at byte {0}")]
    EmptyTree(usize),
    #[error("the text ends inside a game tree")]
    UnexpectedEnd,
    #[error("the main line has more than {MAX_MAIN_LINE_NODES} nodes")]
    TooManyNodes,
}

/// The main line of the first game tree: its first node (the root) and at
/// every branch the first variation. The whole text must be a well-formed
/// collection (white space around game trees is allowed).
pub fn main_line(text: &str) -> Result<Vec<Node>, SgfSyntaxError> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut first_tree = true;
    loop {
        reader.skip_space();
        match reader.peek() {
            None if first_tree => return Err(SgfSyntaxError::NoGameTree),
            None => return Ok(nodes),
            Some(b'(') => {}
            Some(_) => return Err(reader.unexpected()),
        }
        let keep = if first_tree { Some(&mut nodes) } else { None };
        reader.game_tree(keep)?;
        first_tree = false;
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn unexpected(&self) -> SgfSyntaxError {
        let found = std::str::from_utf8(&self.bytes[self.at..])
            .ok()
            .and_then(|s| s.chars().next())
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        SgfSyntaxError::Unexpected { found, at: self.at }
    }

    /// One game tree, from its `(` to the matching `)`. Nodes of the main
    /// line go to `keep`, if given: the main line is followed down the first
    /// variation at every level and ends where that variation closes.
    fn game_tree(&mut self, mut keep: Option<&mut Vec<Node>>) -> Result<(), SgfSyntaxError> {
        let mut depth = 0usize;
        let mut following = keep.is_some();
        // True right after `(`: a game tree starts with a node.
        let mut need_node = false;
        loop {
            self.skip_space();
            let Some(byte) = self.peek() else {
                return Err(SgfSyntaxError::UnexpectedEnd);
            };
            match byte {
                b'(' => {
                    if need_node {
                        return Err(SgfSyntaxError::EmptyTree(self.at));
                    }
                    depth += 1;
                    need_node = true;
                    self.at += 1;
                }
                b')' => {
                    if need_node {
                        return Err(SgfSyntaxError::EmptyTree(self.at));
                    }
                    // The first variation to close ends the main line; the
                    // rest of the tree is only checked.
                    following = false;
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                b';' => {
                    need_node = false;
                    self.at += 1;
                    let node = self.node()?;
                    if let (true, Some(nodes)) = (following, keep.as_deref_mut()) {
                        if nodes.len() == MAX_MAIN_LINE_NODES {
                            return Err(SgfSyntaxError::TooManyNodes);
                        }
                        nodes.push(node);
                    }
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// The properties after a `;`.
    fn node(&mut self) -> Result<Node, SgfSyntaxError> {
        let mut node = Node::new();
        loop {
            self.skip_space();
            if !self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                return Ok(node);
            }
            let start = self.at;
            while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                self.at += 1;
            }
            // FF[3] identifiers may hold lower-case letters (`CoPyright`);
            // FF[4] keeps only the upper-case ones.
            let id: String = self.bytes[start..self.at]
                .iter()
                .filter(|b| b.is_ascii_uppercase())
                .map(|&b| b as char)
                .collect();
            if id.is_empty() {
                self.at = start;
                return Err(self.unexpected());
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.peek() != Some(b'[') {
                    break;
                }
                self.at += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.unexpected_or_end());
            }
            node.push(Property { id, values });
        }
    }

    /// A value after its `[`, up to the unescaped `]`.
    fn value(&mut self) -> Result<String, SgfSyntaxError> {
        let mut value = Vec::new();
        loop {
            match self.peek() {
                None => return Err(SgfSyntaxError::UnexpectedEnd),
                Some(b']') => {
                    self.at += 1;
                    // Only ASCII backslashes were removed from UTF-8 text.
                    return Ok(String::from_utf8_lossy(&value).into_owned());
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        None => return Err(SgfSyntaxError::UnexpectedEnd),
                        // A soft line break: escaped newline, removed.
                        Some(b'\n') | Some(b'\r') => self.at += 1,
                        Some(b) => {
                            value.push(b);
                            self.at += 1;
                        }
                    }
                }
                Some(b) => {
                    value.push(b);
                    self.at += 1;
                }
            }
        }
    }

    fn unexpected_or_end(&self) -> SgfSyntaxError {
        if self.peek().is_none() {
            SgfSyntaxError::UnexpectedEnd
        } else {
            self.unexpected()
        }
    }
}

/// The first value of property `id` in `node`, if present.
pub fn first_value<'n>(node: &'n Node, id: &str) -> Option<&'n str> {
    node.iter()
        .find(|p| p.id == id)
        .and_then(|p| p.values.first())
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(nodes: &[Node]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| {
                n.iter()
                    .map(|p| format!("{}{:?}", p.id, p.values))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn reads_the_main_line_through_variations() {
        let nodes = main_line("(;GM[1]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))").unwrap();
        assert_eq!(
            ids(&nodes),
            vec![
                "GM[\"1\"] SZ[\"9\"]",
                "B[\"aa\"]",
                "W[\"bb\"]",
                "B[\"cc\"]",
                "W[\"dd\"]"
            ]
        );
    }

    #[test]
    fn values_escapes_white_space_and_old_identifiers() {
        let nodes =
            main_line(" \n( ; AB [aa] [bb]\tC[a \\] b\\\\ c\\\nd] CoPyright[x] ) \n").unwrap();
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0][0].values, vec!["aa", "bb"]);
        assert_eq!(nodes[0][1].values, vec!["a ] b\\ cd"]);
        assert_eq!(nodes[0][2].id, "CP");
        assert_eq!(first_value(&nodes[0], "AB"), Some("aa"));
        assert_eq!(first_value(&nodes[0], "B"), None);
    }

    #[test]
    fn later_game_trees_are_checked_but_not_read() {
        assert_eq!(main_line("(;B[aa])(;W[bb])").unwrap().len(), 1);
        assert!(main_line("(;B[aa])(;W[bb]").is_err());
        assert!(main_line("(;B[aa])x").is_err());
    }

    #[test]
    fn malformed_text_is_an_error() {
        for text in [
            "",
            " ",
            "x",
            "(",
            "(;",
            "()",
            "(;B[aa]",
            "(;B[aa",
            "(;B)",
            "(;b[aa])",
            "(;B[aa]())",
            "(;B[aa]))",
            ";B[aa]",
            "(;B[aa]\\",
            "(;B[aa])(",
            "(;B[aa];W[bb]((;B[cc])))",
        ] {
            assert!(main_line(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn long_games_and_deep_nesting_do_not_overflow_the_stack() {
        // Run on a small stack, so that recursion would show.
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let long = format!("(;SZ[19]{})", ";B[tt];W[tt]".repeat(50_000));
                assert_eq!(main_line(&long), Err(SgfSyntaxError::TooManyNodes));
                let unclosed = format!("(;SZ[19]{}", ";B[tt];W[tt]".repeat(50_000));
                assert!(main_line(&unclosed).is_err());

                let nested = format!(
                    "(;SZ[19]{}{}",
                    "(;B[tt]".repeat(200_000),
                    ")".repeat(200_001)
                );
                assert_eq!(main_line(&nested), Err(SgfSyntaxError::TooManyNodes));
                let side = format!(
                    "(;SZ[19](;B[aa])(;W[bb]{}{}))",
                    "(;B[tt]".repeat(200_000),
                    ")".repeat(200_000)
                );
                assert_eq!(main_line(&side).unwrap().len(), 2);

                let at_cap = format!("(;SZ[19]{})", ";B[tt]".repeat(MAX_MAIN_LINE_NODES - 1));
                assert_eq!(main_line(&at_cap).unwrap().len(), MAX_MAIN_LINE_NODES);
            })
            .unwrap();
        handle.join().expect("no stack overflow");
    }
}
