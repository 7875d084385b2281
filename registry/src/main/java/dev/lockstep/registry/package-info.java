/**
 * Spring-free schema registry client and Confluent wire format. The client, codecs and
 * Kafka serdes arrive with the registry issue; this module must never depend on Spring.
 */
package dev.lockstep.registry;
