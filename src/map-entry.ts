// The package's memo tables (Maps and WeakMaps keyed by schema node, engine,
// plan or path token) all fill an entry on first use: one helper for that, so
// the browser bundle carries the pattern once rather than at every table.

/** What {@link entry} needs of a table: a Map or a WeakMap. */
interface Table<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/**
 * The value of `key` in `table`, made by `make(key)` and stored there when it
 * has none (an entry holding `undefined` counts as none). `make` may fill
 * other entries meanwhile; its own result is stored after it returns.
 */
export function entry<K, V>(table: Table<K, V>, key: K, make: (key: K) => V): V {
  let v = table.get(key);
  if (v === undefined) {
    v = make(key);
    table.set(key, v);
  }
  return v;
}

/**
 * A new empty Map: the `make` of an {@link entry} whose values are tables
 * themselves (typed as the table's values by the entry it fills).
 */
export function newMap(): Map<never, never> {
  return new Map<never, never>();
}

/** A new empty WeakMap: as {@link newMap}, for tables keyed by objects. */
export function newWeakMap(): WeakMap<never, never> {
  return new WeakMap<never, never>();
}
