#!/usr/bin/env node
// A small engine for the grn engine protocol (docs/protocol.md), written without grn's code: it has no rules
// of its own and chooses from the legal moves it is sent, by its own simple rule.  In a tile game it prefers
// a move that places a follower (a word starting with "+"), in Gold a move that turns a card never seen
// ("?"); among those it picks one with a seeded generator.  Plain Node, no packages.
//
//   node follower.js [--fault illegal|crash|late|malformed|silent] [--fault-at N]
//
// --fault makes it misbehave at its Nth move (default 1), for grn's tests of a failing engine.
"use strict";
const readline = require("readline");

const args = process.argv.slice(2);
let fault = "none";
let faultAt = 1;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--fault") fault = args[++i];
  else if (args[i] === "--fault-at") faultAt = parseInt(args[++i], 10);
}

let seed = 1;
let state = 0;
function reseed(s) { seed = s >>> 0; state = seed; }
function random() { // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
reseed(1);

function send(line) { process.stdout.write(line + "\n"); }

let position = null;   // the last position received
let reading = null;    // the position being read: {section, left}
let moveCount = 0;
let lastCpu = process.cpuUsage();

function choose(pos) {
  const moves = pos.moves;
  let preferred = moves.filter((m) => m.split(" ").some((w) => w.startsWith("+")));
  if (pos.game === "gold") preferred = moves.filter((m) => m.includes("?"));
  const pool = preferred.length ? preferred : moves;
  return { move: pool[Math.floor(random() * pool.length)], preferred: preferred.length };
}

function onLine(raw) {
  const line = raw.replace(/\r$/, "");
  if (reading) { readPosition(line); return; }
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "grn-engine":
      send("id name follower.js");
      send("id author grn's tests (a program grn did not write)");
      send("option name Seed type spin default 1 min 0 max 2147483647");
      send("ready 1");
      break;
    case "setoption": // setoption name NAME value VALUE
      if (words[2] === "Seed") reseed(parseInt(words[4], 10) || 0);
      break;
    case "ping":
      send("pong");
      break;
    case "position":
      reading = { section: "record", left: -1, pos: { game: words[1], player: words[2], record: [], hand: [],
        unseen: {}, moves: [] } };
      break;
    case "go": {
      const start = process.hrtime.bigint();
      const used = process.cpuUsage(lastCpu); // CPU since the last answer: reading this position
      lastCpu = process.cpuUsage();
      moveCount++;
      if (!position || !position.moves.length) { send("error no position with moves was sent"); break; }
      if (fault !== "none" && moveCount >= faultAt) {
        if (fault === "illegal") { send("info string I will play off the board"); send("bestmove Z@99,99"); break; }
        if (fault === "crash") { process.stderr.write("follower.js: out of cheese\n"); process.exit(3); }
        if (fault === "late") { send("info string thinking very hard"); setTimeout(() => {}, 1e9); break; }
        if (fault === "malformed") { send("info win lots"); break; }
        if (fault === "silent") { break; }
      }
      const { move, preferred } = choose(position);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      send(`info string ${preferred} of ${position.moves.length} moves preferred, chosen in ${Math.round(ms * 1000)} us, ` +
           `read in ${used.user + used.system} us of CPU`);
      send(`info time ${Math.round(ms)}`);
      send("bestmove " + move);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default:
      break; // unknown commands are ignored, as the protocol asks
  }
}

function readPosition(line) {
  const r = reading;
  const pos = r.pos;
  if (r.section === "record") {
    if (r.left < 0) { r.left = parseInt(line.split(" ")[1], 10); if (r.left === 0) r.section = "hand"; return; }
    pos.record.push(line);
    if (--r.left === 0) r.section = "hand";
    return;
  }
  if (r.section === "hand") { pos.hand = line.split(" ").slice(1); r.section = "unseen"; return; }
  if (r.section === "unseen") {
    const words = line.split(" ");
    if (words[0] === "unseen") {
      const counts = {};
      for (const item of words.slice(2)) { const i = item.lastIndexOf(":"); counts[item.slice(0, i)] = +item.slice(i + 1); }
      pos.unseen[words[1]] = counts;
      return;
    }
    r.left = parseInt(words[1], 10);
    r.section = r.left === 0 ? "end" : "moves";
    return;
  }
  if (r.section === "moves") { pos.moves.push(line); if (--r.left === 0) r.section = "end"; return; }
  if (r.section === "end") { position = pos; reading = null; }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", onLine);
rl.on("close", () => process.exit(0));
