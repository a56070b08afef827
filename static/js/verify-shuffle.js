// The in-browser check of a partie's record (« Mélange vérifiable » page): the derivation of
// docs/fair-shuffle.md (version 1), written again with the Web Crypto API only, no library.
// It checks the commitment, the seeds, the first mano, every deck and every reshuffle of the
// record, that every robot's seed follows the public rule (protocol 1.1 of docs/FAIR-SHUFFLE.md),
// and says whether the proof holds (a person's seed among the four); replaying the actions by
// the rules is the command's job
// (python -m games.engine fairness verify). window.BarajamosFairness.derive is what the
// browser test compares with the engine.
(function () {
  var encoder = new TextEncoder();
  var SUITS = ["o", "c", "e", "b"];
  var RANKS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"];
  var CANONICAL = [];
  SUITS.forEach(function (suit) { RANKS.forEach(function (rank) { CANONICAL.push(rank + suit); }); });
  var SEED = /^[0-9a-z]{1,64}$/;
  var HEX64 = /^[0-9a-fA-F]{64}$/;
  var ORIGINS = ["person", "robot", "site"];
  // The page's words, in its language (games.display.fairness_view.verifier_words); each
  // %(name)s filled here. Without them (another page), the key itself.
  var WORDS = {};
  var wordsNode = document.getElementById("verify-words");
  if (wordsNode) { WORDS = JSON.parse(wordsNode.textContent); }
  function word(key, params) {
    return (WORDS[key] || key).replace(/%\((\w+)\)s/g, function (all, name) {
      return params && name in params ? String(params[name]) : all;
    });
  }

  // A robot's seed: the first 32 hex digits of SHA-256("barajamos-robot|" + commitment + "|" + seat).
  async function robotSeed(commitment, seat) {
    var digest = await crypto.subtle.digest(
      "SHA-256", encoder.encode("barajamos-robot|" + commitment + "|" + seat));
    return toHex(digest).slice(0, 32);
  }

  function hexBytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i += 1) { out[i] = parseInt(hex.substr(i * 2, 2), 16); }
    return out;
  }
  function toHex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // The words of one label: HMAC-SHA256(server_seed, M|label|i), i = 0, 1, ..., 4-byte
  // big-endian words in order.
  function Stream(key, message, label) {
    this.key = key;
    this.prefix = message + "|" + label + "|";
    this.i = 0;
    this.words = [];
  }
  Stream.prototype.word = async function () {
    if (!this.words.length) {
      var block = await crypto.subtle.sign("HMAC", this.key, encoder.encode(this.prefix + this.i));
      this.i += 1;
      var view = new DataView(block);
      for (var at = 0; at < 32; at += 4) { this.words.push(view.getUint32(at, false)); }
    }
    return this.words.shift();
  };
  Stream.prototype.uniform = async function (n) {
    var space = 4294967296;
    var limit = space - (space % n);
    for (;;) {
      var value = await this.word();
      if (value < limit) { return value % n; }
    }
  };
  Stream.prototype.shuffle = async function (cards) {
    var out = cards.slice();
    for (var i = out.length - 1; i > 0; i -= 1) {
      var j = await this.uniform(i + 1);
      var kept = out[i]; out[i] = out[j]; out[j] = kept;
    }
    return out;
  };

  async function Deal(serverSeedHex, seeds) {
    var raw = hexBytes(serverSeedHex);
    var commitment = toHex(await crypto.subtle.digest("SHA-256", raw));
    var key = await crypto.subtle.importKey(
      "raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    var message = ["barajamos-v1", commitment].concat(seeds).join("|");
    function stream(label) { return new Stream(key, message, label); }
    return {
      commitment: commitment,
      firstMano: function () { return stream("mano").uniform(4); },
      deck: function (k) { return stream("deck|" + k).shuffle(CANONICAL); },
      reshuffle: function (k, r, cards) {
        var ordered = cards.slice().sort(function (a, b) {
          return CANONICAL.indexOf(a) - CANONICAL.indexOf(b);
        });
        return stream("reshuffle|" + k + "|" + r).shuffle(ordered);
      }
    };
  }

  // What « fairness derive » prints, for the same input (without its reshuffles).
  async function derive(serverSeedHex, seeds, hands) {
    var deal = await Deal(serverSeedHex.toLowerCase(), seeds);
    var decks = [];
    for (var k = 1; k <= hands; k += 1) { decks.push(await deal.deck(k)); }
    return { commitment: deal.commitment, first_mano: await deal.firstMano(), decks: decks };
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function short(cards) { return cards.slice(0, 6).join(" ") + (cards.length > 6 ? " …" : ""); }

  // Every check of the record, in order: [{ok, text}]; a record that cannot be checked throws
  // an Error with a message in the page's language.
  async function verifyRecord(record) {
    if (!record || typeof record !== "object") { throw new Error(word("not_record")); }
    var f = record.fairness;
    if (!f || f.version === null || f.version === undefined) {
      throw new Error(word("before_protocol"));
    }
    if (f.version !== 1) { throw new Error(word("unknown_version", { version: f.version })); }
    if (typeof f.server_seed !== "string" || !HEX64.test(f.server_seed)) {
      throw new Error(word("bad_server_seed"));
    }
    var seeds = f.client_seeds;
    if (!Array.isArray(seeds) || seeds.length !== 4 || !seeds.every(function (s) { return SEED.test(s); })) {
      throw new Error(word("bad_seeds"));
    }
    var origins = f.seed_origins;
    if (origins !== undefined && (!Array.isArray(origins) || origins.length !== 4 ||
        !origins.every(function (o) { return ORIGINS.indexOf(o) >= 0; }))) {
      throw new Error(word("bad_origins"));
    }
    if (!Array.isArray(record.decks)) { throw new Error(word("no_decks")); }
    var checks = [];
    function check(ok, text) { checks.push({ ok: ok, text: text }); }
    var deal = await Deal(f.server_seed.toLowerCase(), seeds);
    check(deal.commitment === String(f.commitment).toLowerCase(),
      deal.commitment === String(f.commitment).toLowerCase()
        ? word("commitment", { commitment: deal.commitment })
        : word("commitment_differs", { commitment: deal.commitment, recorded: f.commitment }));
    check(true, word("seeds", { seeds: seeds.join(", ") }));
    var recordedCommitment = String(f.commitment).toLowerCase();
    for (var seat = 0; seat < 4 && origins; seat += 1) {
      if (origins[seat] !== "robot") { continue; }
      var rule = await robotSeed(recordedCommitment, seat);
      check(rule === seeds[seat], rule === seeds[seat]
        ? word("robot_rule", { seat: seat + 1 })
        : word("robot_differs", { seat: seat + 1, rule: rule }));
    }
    var mano = await deal.firstMano();
    check(mano === record.first_mano,
      word("first_mano", { computed: mano + 1, recorded: Number(record.first_mano) + 1 }));
    for (var k = 1; k <= record.decks.length; k += 1) {
      var derived = await deal.deck(k);
      check(same(derived, record.decks[k - 1]),
        word(same(derived, record.decks[k - 1]) ? "deck" : "deck_differs", { hand: k, cards: short(derived) }));
    }
    var recorded = Array.isArray(record.reshuffles) ? record.reshuffles : [];
    var labels = Array.isArray(f.reshuffle_labels) ? f.reshuffle_labels : [];
    if (recorded.length !== labels.length) {
      check(false, word("reshuffle_count", { recorded: recorded.length, found: labels.length }));
    }
    for (var i = 0; i < Math.min(recorded.length, labels.length); i += 1) {
      var label = labels[i];
      var again = await deal.reshuffle(label.hand, label.round, recorded[i]);
      check(same(again, recorded[i]),
        word("reshuffle", { round: label.round, hand: label.hand, cards: short(again) }));
    }
    // "holds": a person's seed among the four; "none": robots' and the site's only;
    // "unknown": a record that does not say (before protocol 1.1).
    checks.proof = !origins ? "unknown" : (origins.indexOf("person") >= 0 ? "holds" : "none");
    checks.people = origins ? origins.reduce(function (seats, o, n) {
      return o === "person" ? seats.concat([n + 1]) : seats;
    }, []) : [];
    return checks;
  }

  var PROOF_TEXT = {
    holds: function (people) {
      return word("proof_holds", { seats: people.join(", ") });
    },
    none: function () {
      return word("proof_none");
    },
    unknown: function () {
      return word("proof_unknown");
    }
  };

  window.BarajamosFairness = {
    derive: derive, verifyRecord: verifyRecord, robotSeed: robotSeed, CANONICAL: CANONICAL
  };

  // The page's form: paste or load the record, then check.
  var form = document.getElementById("verify-form");
  if (!form) { return; }
  var text = document.getElementById("verify-record");
  var file = document.getElementById("verify-file");
  var out = document.getElementById("verify-result");
  form.hidden = false;
  var missing = document.getElementById("verify-no-js");
  if (missing) { missing.hidden = true; }
  file.addEventListener("change", function () {
    if (!file.files.length) { return; }
    file.files[0].text().then(function (content) { text.value = content; });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    out.textContent = word("checking");
    var record;
    try {
      record = JSON.parse(text.value);
    } catch (e) {
      out.textContent = word("not_json");
      return;
    }
    verifyRecord(record).then(function (checks) {
      out.textContent = "";
      var list = document.createElement("ul");
      list.className = "verify-checks";
      checks.forEach(function (c) {
        var item = document.createElement("li");
        item.className = c.ok ? "is-ok" : "is-fail";
        item.textContent = (c.ok ? "✓ " : "✗ ") + c.text;
        list.appendChild(item);
      });
      var failed = checks.filter(function (c) { return !c.ok; }).length;
      var summary = document.createElement("p");
      summary.className = failed ? "verify-summary is-fail" : "verify-summary is-ok";
      summary.setAttribute("data-verify-summary", failed ? "fail" : "ok");
      summary.textContent = failed ? word("failed", { failed: failed }) : word("all_good");
      out.appendChild(summary);
      var proof = document.createElement("p");
      proof.className = "verify-proof is-" + checks.proof;
      proof.setAttribute("data-verify-proof", checks.proof);
      proof.textContent = PROOF_TEXT[checks.proof](checks.people);
      out.appendChild(proof);
      out.appendChild(list);
    }, function (error) {
      out.textContent = error.message;
    });
  });
})();
