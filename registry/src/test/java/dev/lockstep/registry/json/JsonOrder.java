package dev.lockstep.registry.json;

import java.math.BigDecimal;

/**
 * The value class of the JSON Schema tests: what {@code order.schema.json} describes.
 *
 * @param id the order's id
 * @param amount its amount
 */
public record JsonOrder(String id, BigDecimal amount) {

}
