//! Turning a prompt into search terms.
//!
//! A prompt is prose, not query syntax: `"`, `-`, `:`, `NEAR`, `*` and `AND` in it are words or
//! separators, never operators. So the prompt is split into words (runs of letters and digits,
//! as FTS5's `unicode61` tokenizer splits), common English words are dropped (they match almost
//! every memory and only slow the ranking down), and [`super::store::Store::search_memories`]
//! quotes each remaining word and ORs them: BM25 then ranks a memory higher the more of the
//! rarer words it shares with the prompt. An AND of every word of a prompt would match nothing.

/// At most this many distinct words reach `MATCH`: a pasted log adds cost, not relevance.
pub const MAX_TERMS: usize = 48;

/// Words too common to tell memories apart.
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "don", "down", "during", "each", "few", "for", "from", "further", "get", "got", "had", "has", "have",
    "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just",
    "let", "like", "ll", "me", "more", "most", "my", "need", "no", "nor", "not", "now", "of", "off", "on", "once",
    "only", "or", "other", "our", "ours", "out", "over", "own", "please", "re", "s", "same", "she", "should", "so",
    "some", "such", "t", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this",
    "those", "through", "to", "too", "under", "until", "up", "us", "ve", "very", "want", "was", "we", "were", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
];

/// The words of a prompt, lowercased, in first-seen order, without duplicates or stop words.
/// When every word is a stop word they are all kept, so that a prompt of only common words
/// still searches.
pub fn terms(prompt: &str) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for word in prompt.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let word = word.to_lowercase();
        if !all.contains(&word) {
            all.push(word);
        }
    }
    let mut kept: Vec<String> = all.iter().filter(|w| !STOPWORDS.contains(&w.as_str())).cloned().collect();
    if kept.is_empty() {
        kept = all;
    }
    kept.truncate(MAX_TERMS);
    kept
}
