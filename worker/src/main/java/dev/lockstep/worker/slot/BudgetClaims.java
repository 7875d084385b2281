package dev.lockstep.worker.slot;

/**
 * One slot's claims on a one-shot run's shared {@link RecordBudget}: the records its open
 * transaction holds, given back if the transaction is given up. Without a budget (a
 * long-running worker) every claim succeeds.
 */
final class BudgetClaims {

	private final RecordBudget budget;

	private int held;

	BudgetClaims(RecordBudget budget) {
		this.budget = budget;
	}

	/**
	 * Claim one record for the open transaction.
	 * @return whether the budget had a record left
	 */
	boolean claim() {
		if (this.budget == null) {
			return true;
		}
		if (!this.budget.tryClaim()) {
			return false;
		}
		this.held++;
		return true;
	}

	/**
	 * Give back the claim of the last record: the transaction will not hold it.
	 */
	void unclaim() {
		if (this.budget != null && this.held > 0) {
			this.held--;
			this.budget.release(1);
		}
	}

	/** The transaction committed: its claims are spent. */
	void committed() {
		if (this.budget != null) {
			this.budget.committed(this.held);
		}
		this.held = 0;
	}

	/** The transaction was given up: its claims go back to the budget. */
	void released() {
		if (this.budget != null) {
			this.budget.release(this.held);
		}
		this.held = 0;
	}

	boolean isExhausted() {
		return this.budget != null && this.budget.isExhausted();
	}

	/**
	 * Return whether the one-shot run is complete: every record of the budget committed,
	 * by this slot or another.
	 * @return whether the run is complete
	 */
	boolean isRunComplete() {
		return this.budget != null && this.budget.isComplete();
	}

}
