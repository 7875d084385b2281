package dev.lockstep.benchmarks.rebalance;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ArrivalsTests {

	private final Arrivals arrivals = new Arrivals();

	@Test
	void longestGapIsTheLongestAnyPartitionWentWithoutOutputFromTheFirstMomentToTheSecond() {
		this.arrivals.add(0, 1090, 1100);
		this.arrivals.add(1, 1290, 1300);
		this.arrivals.add(0, 1490, 1500);
		// Partition 0 went 100, 400 and 500 ms without; partition 1 300, then 700 ms.
		assertThat(this.arrivals.longestGap(1000, 2000, 2)).isEqualTo(700);
	}

	@Test
	void aPartitionWithoutOutputBetweenTheMomentsWentTheWholeTimeWithout() {
		this.arrivals.add(0, 1090, 1100);
		assertThat(this.arrivals.longestGap(1000, 1500, 3)).isEqualTo(500);
	}

	@Test
	void outputSeenOutsideTheMomentsDoesNotShortenAGap() {
		this.arrivals.add(0, 900, 990);
		this.arrivals.add(0, 1390, 1400);
		this.arrivals.add(0, 2090, 2100);
		assertThat(this.arrivals.longestGap(1000, 2000, 1)).isEqualTo(600);
		// Counted from the first moment, not from the output at 990.
		assertThat(this.arrivals.longestGap(1000, 1400, 1)).isEqualTo(400);
	}

	@Test
	void partitionsHaveResumedOnceEachShowsOutputForInputSentAtOrAfterTheEvent() {
		this.arrivals.add(0, 1200, 1300);
		// Seen after the event, but for input sent before it: not a resumption.
		this.arrivals.add(1, 900, 1400);
		assertThat(this.arrivals.allResumedAfter(1000, 2)).isZero();
		this.arrivals.add(1, 1500, 1700);
		this.arrivals.add(0, 1600, 1800);
		assertThat(this.arrivals.allResumedAfter(1000, 2)).isEqualTo(1700);
	}

	@Test
	void keepsEveryArrivalPastItsFirstCapacity() {
		int records = 200_000;
		for (int i = 0; i < records; i++) {
			this.arrivals.add(i % 2, i, i);
		}
		assertThat(this.arrivals.longestGap(0, records - 1, 2)).isEqualTo(2);
		assertThat(this.arrivals.allResumedAfter(records - 2, 2)).isEqualTo(records - 1);
	}

}
