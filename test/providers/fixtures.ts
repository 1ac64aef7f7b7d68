// Tool calls whose argument texts break when anything on the way parses them:
// ids above 2^53, 1.0 floats, nested arrays, escapes, whitespace, and
// characters outside the BMP (a delta cut between the two halves of a
// surrogate pair, a byte cut inside a UTF-8 sequence).

import type { ReplayCall } from "../../examples/providers/replay-server.js";

export const HARD_CALLS: readonly ReplayCall[] = [
  { id: "call_big_1", name: "get_user", argumentsJson: '{"user_id": 9007199254740993}' },
  {
    id: "call_nested_2",
    name: "set_matrix",
    argumentsJson:
      '{"threshold":1.0,"matrix":[[1,2.0],[[9007199254740995]],[]],"ids":[18014398509481985,-9007199254740993],"tiny":1.5e-7}',
  },
  {
    id: "call_text_3",
    name: "create_ticket",
    argumentsJson:
      '{"title":"naïve café — 東京 😀🎉","id":12345678901234567890,"escaped":"q\\" b\\\\ \\u00e9 \\ud83d\\ude00 \\/"}',
  },
  {
    id: "call_spaced_4",
    name: "query_rows",
    argumentsJson: '{\n  "table" : "users",\n  "min_id" : 9007199254740993 ,\n  "limit":2\n}',
  },
];
