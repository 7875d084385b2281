/**
 * Auto-configuration of Lockstep workers on top of Spring Boot's Kafka support. The
 * properties, auto-configurations and worker runtime arrive with the worker-runtime issue.
 */
package dev.lockstep.autoconfigure;
