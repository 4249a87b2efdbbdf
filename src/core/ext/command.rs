//! `NAME=COMMAND`: how a user registers a program as an algorithm, and the command line split as
//! a POSIX shell splits words (quotes and backslashes; no variables, globs or pipes: the program
//! is started directly, not through a shell).

use serde::{Deserialize, Serialize};

/// A program registered under a name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtSpec {
    /// What the user calls it: `--algorithm NAME`, the pickers' entry.
    pub name: String,
    /// The command line, as typed.
    pub command: String,
}

impl ExtSpec {
    /// A name and a command line, both checked.
    pub fn new(name: &str, command: &str) -> Result<Self, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("the name is empty".into());
        }
        if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || "-_.+".contains(*c))) {
            return Err(format!("the name {name:?} has {c:?}: use letters, digits and - _ . +"));
        }
        if crate::core::fov::Algorithm::from_name(name).is_some()
            || crate::core::path::Algorithm::from_name(name).is_some()
            || name == "all"
        {
            return Err(format!("{name:?} is a built-in algorithm's name: choose another"));
        }
        let words = split_command(command)?;
        if words.is_empty() {
            return Err(format!("the command for {name:?} is empty"));
        }
        Ok(Self { name: name.to_string(), command: command.trim().to_string() })
    }

    /// `NAME=COMMAND`, as `--ext` takes it.
    pub fn parse(arg: &str) -> Result<Self, String> {
        let (name, command) = arg.split_once('=').ok_or_else(|| format!("expected NAME=COMMAND but found {arg:?}"))?;
        Self::new(name, command)
    }

    /// The program and its arguments.
    pub fn argv(&self) -> Vec<String> {
        // Checked in `new`; a spec deserialized from settings is checked again when started.
        split_command(&self.command).unwrap_or_default()
    }
}

impl std::str::FromStr for ExtSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// Splits a command line into words as `sh` does: blanks separate words; `'…'` keeps everything
/// literally; `"…"` keeps everything but `\"`, `\\`, `\$` and `` \` ``; a backslash outside
/// quotes keeps the next character.
pub(crate) fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started (`''` is an empty word, not none).
    let mut started = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                started = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(c) => word.push(c),
                    None => return Err(format!("a trailing \\ in {line:?}")),
                }
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_command(s).unwrap()
    }

    #[test]
    fn words_split_as_a_shell_splits_them() {
        assert_eq!(split("python3  adapters/x.py --fov shadow"), ["python3", "adapters/x.py", "--fov", "shadow"]);
        assert_eq!(split(r#"node 'my dir/a.mjs' "b c" d\ e"#), ["node", "my dir/a.mjs", "b c", "d e"]);
        assert_eq!(split(r#"a "x\"y\\z\n" '' "#), ["a", r#"x"y\z\n"#, ""]);
        assert_eq!(split(r#"a'b'"c"d"#), ["abcd"]);
        assert!(split("   ").is_empty());
        assert!(split_command("a 'b").unwrap_err().contains("unclosed '"));
        assert!(split_command("a \"b").unwrap_err().contains("unclosed \""));
        assert!(split_command("a \\").unwrap_err().contains("trailing"));
    }

    #[test]
    fn a_spec_needs_a_new_name_and_a_command() {
        let spec = ExtSpec::parse("tcod=python3 a.py --fov 'shadow'").unwrap();
        assert_eq!(spec.name, "tcod");
        assert_eq!(spec.argv(), ["python3", "a.py", "--fov", "shadow"]);
        assert!(ExtSpec::parse("tcod").unwrap_err().contains("NAME=COMMAND"));
        assert!(ExtSpec::parse("=x").unwrap_err().contains("empty"));
        assert!(ExtSpec::parse("symmetric=x").unwrap_err().contains("built-in"));
        assert!(ExtSpec::parse("astar=x").unwrap_err().contains("built-in"));
        assert!(ExtSpec::parse("a b=x").unwrap_err().contains("' '"));
        assert!(ExtSpec::parse("ok=  ").unwrap_err().contains("empty"));
    }
}
