package dev.lockstep.worker.ordering;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of a poll the slot thread has yet to process itself, in the poll's order.
 * Slot thread only.
 */
final class PollRest {

	private List<ConsumerRecord<byte[], byte[]>> records = List.of();

	private int next;

	/**
	 * Replace what is left with a poll's records.
	 * @param poll the records
	 */
	void set(ConsumerRecords<byte[], byte[]> poll) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(poll.count());
		poll.forEach(records::add);
		this.records = records;
		this.next = 0;
	}

	boolean hasNext() {
		return this.next < this.records.size();
	}

	ConsumerRecord<byte[], byte[]> next() {
		return this.records.get(this.next++);
	}

	int size() {
		return this.records.size() - this.next;
	}

	/**
	 * Take every record left, for another to process.
	 * @return the records left, in order
	 */
	List<ConsumerRecord<byte[], byte[]>> takeAll() {
		List<ConsumerRecord<byte[], byte[]>> rest = this.records.subList(this.next, this.records.size());
		this.records = List.of();
		this.next = 0;
		return rest;
	}

	/**
	 * Return whether any record left is of one of the partitions.
	 * @param partitions the partitions
	 * @return whether records of the partitions are left
	 */
	boolean holdsAny(Collection<TopicPartition> partitions) {
		for (int i = this.next; i < this.records.size(); i++) {
			if (partitions.contains(partitionOf(this.records.get(i)))) {
				return true;
			}
		}
		return false;
	}

	void clear() {
		this.records = List.of();
		this.next = 0;
	}

	/**
	 * Drop the records of partitions the slot no longer owns.
	 * @param partitions the partitions
	 * @return how many records were dropped
	 */
	int remove(Collection<TopicPartition> partitions) {
		List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>();
		for (int i = this.next; i < this.records.size(); i++) {
			if (!partitions.contains(partitionOf(this.records.get(i)))) {
				kept.add(this.records.get(i));
			}
		}
		int removed = size() - kept.size();
		this.records = kept;
		this.next = 0;
		return removed;
	}

	private static TopicPartition partitionOf(ConsumerRecord<byte[], byte[]> record) {
		return new TopicPartition(record.topic(), record.partition());
	}

}
