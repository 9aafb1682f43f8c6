//! The labelled relevance set (`fixtures/relevance/set.json`): memories, and prompts with the
//! memories a person would want surfaced for each. Recall at k measures the wake-up search on
//! either backend, so a change to ranking is measured, not guessed.

use super::rank::terms;
use super::store::{NewMemory, Reader, Store};
use anyhow::{anyhow, Context as _, Result};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Debug, Deserialize)]
pub struct LabelledMemory {
    pub key: String,
    pub kind: String,
    pub title: String,
    #[serde(default)]
    pub synopsis: String,
    #[serde(default)]
    pub body: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct LabelledPrompt {
    pub prompt: String,
    pub relevant: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct RelevanceSet {
    pub memories: Vec<LabelledMemory>,
    pub prompts: Vec<LabelledPrompt>,
}

impl RelevanceSet {
    pub fn load(path: &Path) -> Result<RelevanceSet> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a relevance set", path.display()))
    }

    /// The set's memories for `project`, created one minute apart in file order, keyed so that
    /// loading them twice adds nothing.
    pub fn new_memories(&self, project: &str, first_created_at: i64) -> Vec<NewMemory> {
        self.memories
            .iter()
            .enumerate()
            .map(|(index, labelled)| {
                let mut memory = NewMemory::new(project, &labelled.title, first_created_at + index as i64 * 60_000);
                memory.synopsis = labelled.synopsis.clone();
                memory.body = labelled.body.clone();
                memory.kind = labelled.kind.clone();
                memory.import_key = Some(format!("relevance:{}", labelled.key));
                memory
            })
            .collect()
    }
}

/// Recall at `k` on a store holding the set's memories (see [`RelevanceSet::new_memories`]):
/// for each prompt, the share of its relevant memories (at most `k`) found in the search's top
/// `k`, averaged over the prompts. Also returns each prompt's top `k` keys.
pub fn recall_at(store: &Store, set: &RelevanceSet, reader: &Reader, k: usize) -> Result<(f64, Vec<Vec<String>>)> {
    let mut keys_by_title: HashMap<&str, &str> = HashMap::new();
    for memory in &set.memories {
        keys_by_title.insert(memory.title.as_str(), memory.key.as_str());
    }
    let mut total = 0.0;
    let mut tops = Vec::new();
    for prompt in &set.prompts {
        let found = store.search_memories(reader, &terms(&prompt.prompt), k)?;
        let keys: Vec<String> = found
            .iter()
            .map(|m| keys_by_title.get(m.title.as_str()).map(|k| k.to_string()).unwrap_or_else(|| m.title.clone()))
            .collect();
        let wanted = prompt.relevant.len().min(k);
        if wanted == 0 {
            return Err(anyhow!("prompt `{}` names no relevant memory", prompt.prompt));
        }
        let hits = prompt.relevant.iter().filter(|key| keys.contains(key)).count().min(wanted);
        total += hits as f64 / wanted as f64;
        tops.push(keys);
    }
    Ok((total / set.prompts.len().max(1) as f64, tops))
}
