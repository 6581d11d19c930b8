// The TextMate grammar, tokenized as VS Code does (vscode-textmate on the oniguruma regex engine), over every
// example record of grn and over records mutated at random: every example reads without an invalid token,
// each kind of word gets its scope, and no input stops the tokenizer or leaves a character without a token.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const ROOT = path.resolve(__dirname, "..", "..", "..");
const GRAMMAR = path.resolve(__dirname, "..", "syntaxes", "grn.tmLanguage.json");

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === "source.grn"
        ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, "utf8"), GRAMMAR)
        : null,
  });
  return registry.loadGrammar("source.grn");
}

// Every token of a text: {line, text, scopes}; checks that the tokens of each line cover it end to end.
function tokenize(grammar, text) {
  const out = [];
  let state = vsctm.INITIAL;
  for (const [i, line] of text.split("\n").entries()) {
    const result = grammar.tokenizeLine(line, state, 2000);
    assert.ok(!result.stoppedEarly, `line ${i + 1} took too long to tokenize`);
    let at = 0;
    for (const token of result.tokens) {
      assert.equal(token.startIndex, at, `line ${i + 1}: a gap before column ${token.startIndex + 1}`);
      const end = Math.min(token.endIndex, line.length);
      out.push({ line: i + 1, text: line.slice(token.startIndex, end), scopes: token.scopes });
      at = end;
    }
    assert.equal(at, line.length, `line ${i + 1}: the tokens stop at column ${at + 1}`);
    state = result.ruleStack;
  }
  return out;
}

function examples() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".grn")) found.push(full);
    }
  };
  walk(path.join(ROOT, "examples"));
  return found.sort();
}

// A small seeded generator (mulberry32): the same mutated records on every run.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text, rand) {
  const pieces = ["{", "}", "(", ")", "<", ">", "[", "]", "\"", ";", "@", ",", ":", "=", "+", "\n", " ", "\\",
    "17@", "score", "tent@", "mine=", "<label", "é", "\u2028", "\t"];
  let out = text;
  const edits = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * (out.length + 1));
    const kind = rand();
    if (kind < 0.35) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(rand() * 20));
    else if (kind < 0.7) out = out.slice(0, at) + pieces[Math.floor(rand() * pieces.length)] + out.slice(at);
    else {
      const from = Math.floor(rand() * out.length);
      out = out.slice(0, at) + out.slice(from, from + Math.floor(rand() * 40)) + out.slice(at);
    }
  }
  return out;
}

const files = examples();
let grammar;

test.before(async () => {
  grammar = await loadGrammar();
});

test("there are example records to read", () => {
  assert.ok(files.length >= 20, `only ${files.length} example files found under ${ROOT}/examples`);
});

test("every example file reads without an invalid token", () => {
  for (const file of files) {
    const tokens = tokenize(grammar, fs.readFileSync(file, "utf8"));
    const bad = tokens.filter((t) => t.scopes.some((s) => s.startsWith("invalid.")));
    assert.deepEqual(bad.map((t) => `${path.relative(ROOT, file)}:${t.line}: ${t.text}`), []);
  }
});

test("each kind of word gets its scope", () => {
  const text = [
    "[Game \"goldrush\"]",
    "1. red 47a@-1,0:90 +N tent@0,0:W mine=2 ! {a farmer",
    "on two lines} score red=3 yellow=0 <label 0,1 \"3 tokens\"> (1. red 64@1,0 ; a line comment",
    ")",
    "2. green c1=yellow2 a5=G3 d4=D ingot@1,1 take@2,2 discard 17 tokens=2,?,3 $4",
    "3. red 17@@ ]",
  ].join("\n");
  const tokens = tokenize(grammar, text);
  const scope = (word, line) => {
    const t = tokens.find((x) => x.text === word && (line === undefined || x.line === line));
    assert.ok(t, `no token ${word}`);
    return t.scopes[t.scopes.length - 1];
  };
  assert.equal(scope("Game"), "entity.name.tag.grn");
  assert.equal(scope("\"goldrush\""), "string.quoted.double.grn");
  assert.equal(scope("1.", 2), "constant.numeric.turn.grn");
  assert.equal(scope("red", 2), "variable.other.player.grn");
  assert.equal(scope("47a"), "entity.name.function.tile.grn");
  assert.equal(scope("-1,0"), "constant.numeric.square.grn");
  assert.equal(scope("+N"), "entity.other.attribute-name.figure.grn");
  assert.equal(scope("tent"), "keyword.control.action.grn");
  assert.equal(scope("mine"), "keyword.control.action.grn");
  assert.equal(scope("!"), "keyword.operator.glyph.grn");
  assert.equal(scope("on two lines"), "comment.block.grn");
  assert.equal(scope("score"), "keyword.other.score.grn");
  assert.equal(scope("\"3 tokens\""), "string.quoted.double.grn");
  assert.equal(scope("label"), "storage.type.markup.grn");
  assert.equal(scope("; a line comment"), "comment.line.semicolon.grn");
  assert.equal(scope("c1"), "entity.name.function.card.grn");
  assert.equal(scope("yellow2"), "constant.language.card.grn");
  assert.equal(scope("D"), "constant.language.card.grn");
  assert.equal(scope("ingot"), "keyword.control.action.grn");
  assert.equal(scope("discard 17"), "keyword.control.discard.grn");
  assert.equal(scope("$4"), "keyword.operator.glyph.grn");
  assert.equal(scope("17@@"), "invalid.illegal.grn");
  assert.equal(scope("]", 6), "invalid.illegal.grn");
});

test("mutated records: every character gets a token and the tokenizer always finishes", () => {
  const rand = random(24);
  const texts = files.map((f) => fs.readFileSync(f, "utf8"));
  for (let i = 0; i < 300; i++) {
    const text = mutate(texts[i % texts.length], rand);
    tokenize(grammar, text);
  }
});
