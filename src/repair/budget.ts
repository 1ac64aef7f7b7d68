// One budget per repair call, in work units (never in time, so a verdict never
// depends on the machine): the schema's size, every schema evaluation ajv
// makes, every member or element it loops over, and every pattern test in
// proportion to the text tested all draw on it. See docs/repair.md for the
// unit table.

/** Work units one {@link repairArguments} call may spend by default. */
export const REPAIR_BUDGET = 1_000_000;

/** Thrown when a call has spent its budget; caught at the call's boundary. */
export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";
}

/** The one instance thrown (no stack capture per throw). */
const BUDGET_EXCEEDED = new BudgetExceeded("repair budget exceeded");

/** The units a call may still spend. */
export class Budget {
  /** Units spent so far. */
  spent = 0;
  constructor(
    /** Most units the call may spend. */
    readonly limit: number,
  ) {}

  /** Spends `units`; throws {@link BudgetExceeded} once the total passes the limit. */
  charge(units: number): void {
    if (!this.tryCharge(units)) throw BUDGET_EXCEEDED;
  }

  /** Spends `units`; false once the total passes the limit. */
  tryCharge(units: number): boolean {
    this.spent += units;
    return this.spent <= this.limit;
  }
}
