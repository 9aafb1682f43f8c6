//! The search tokens of a memory, exactly as the SQLite store's FTS5 index sees them.
//!
//! The PostgreSQL store ranks with the same BM25 as the SQLite store, so it needs the same
//! tokens: rather than a second tokenizer that would drift, text is tokenized by SQLite's own
//! FTS5 (`porter unicode61 remove_diacritics 2`, [`TOKENIZE`]) in an in-memory database, and the
//! tokens and their positions are read back through an `fts5vocab` table.

use anyhow::{Context as _, Result};
use rusqlite::{params, Connection};
use std::collections::BTreeMap;

/// The FTS5 tokenizer both stores use.
pub const TOKENIZE: &str = "porter unicode61 remove_diacritics 2";

/// Columns of the search index, in order: title, synopsis, body, project tag.
pub const COLUMNS: usize = 4;

/// The tokens of one document: each distinct token with its positions per column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocTokens {
    /// token → (column, offset) pairs, in column and offset order.
    pub terms: BTreeMap<String, Vec<(u8, u32)>>,
    /// Every token of every column: FTS5's document length.
    pub length: i64,
}

/// An in-memory FTS5 table with the store's tokenizer.
pub struct Tokenizer {
    conn: Connection,
}

impl Tokenizer {
    pub fn new() -> Result<Tokenizer> {
        let conn = Connection::open_in_memory().context("cannot open an in-memory SQLite database")?;
        conn.execute_batch(&format!(
            "CREATE VIRTUAL TABLE docs USING fts5(c0, c1, c2, c3, tokenize = '{TOKENIZE}');
             CREATE VIRTUAL TABLE vocab USING fts5vocab(docs, 'instance');"
        ))
        .context("cannot create the tokenizer's FTS5 table")?;
        Ok(Tokenizer { conn })
    }

    /// Tokenizes documents of up to [`COLUMNS`] columns each.
    pub fn documents(&mut self, docs: &[[&str; COLUMNS]]) -> Result<Vec<DocTokens>> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM docs", [])?;
        {
            let mut insert =
                tx.prepare_cached("INSERT INTO docs (rowid, c0, c1, c2, c3) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for (index, doc) in docs.iter().enumerate() {
                insert.execute(params![index as i64 + 1, doc[0], doc[1], doc[2], doc[3]])?;
            }
        }
        let mut out = vec![DocTokens::default(); docs.len()];
        {
            let mut rows = tx.prepare_cached("SELECT term, doc, col, offset FROM vocab")?;
            let mut rows = rows.query([])?;
            while let Some(row) = rows.next()? {
                let term: String = row.get(0)?;
                let doc: i64 = row.get(1)?;
                let column: String = row.get(2)?;
                let offset: i64 = row.get(3)?;
                let column = match column.as_str() {
                    "c0" => 0,
                    "c1" => 1,
                    "c2" => 2,
                    _ => 3,
                };
                let Some(entry) = usize::try_from(doc - 1).ok().and_then(|index| out.get_mut(index)) else {
                    continue;
                };
                entry.length += 1;
                entry.terms.entry(term).or_default().push((column, u32::try_from(offset).unwrap_or(u32::MAX)));
            }
        }
        tx.execute("DELETE FROM docs", [])?;
        tx.commit()?;
        for doc in &mut out {
            for positions in doc.terms.values_mut() {
                positions.sort_unstable();
            }
        }
        Ok(out)
    }

    /// The tokens of a query phrase, in order (FTS5 matches them as adjacent tokens).
    pub fn phrase(&mut self, text: &str) -> Result<Vec<String>> {
        let doc = self.documents(&[[text, "", "", ""]])?.pop().unwrap_or_default();
        let mut tokens: Vec<(u32, String)> = Vec::new();
        for (term, positions) in doc.terms {
            for (_, offset) in positions {
                tokens.push((offset, term.clone()));
            }
        }
        tokens.sort();
        Ok(tokens.into_iter().map(|(_, term)| term).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fts5s_own() {
        let mut tokenizer = Tokenizer::new().unwrap();
        let docs = tokenizer.documents(&[["Running the Café", "runs", "", "qp00ff"]]).unwrap();
        let doc = &docs[0];
        assert_eq!(doc.length, 5);
        assert_eq!(doc.terms["run"], vec![(0, 0), (1, 0)]);
        assert_eq!(doc.terms["cafe"], vec![(0, 2)]);
        assert_eq!(tokenizer.phrase("Naïve-Bayes").unwrap(), ["naiv", "bay"]);
        assert!(tokenizer.phrase("—").unwrap().is_empty());
        // A word Rust calls alphanumeric that FTS5 splits: searched as a phrase of its tokens.
        assert_eq!(tokenizer.phrase("नमस्ते").unwrap(), ["नमस", "त"]);
    }
}
