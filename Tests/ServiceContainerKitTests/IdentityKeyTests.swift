import Testing

@testable import ServiceContainerKit

@Suite("Identities as dictionary keys")
struct IdentityKeyTests {
    private final class Object {}

    /// Objects made one after the other, as a scope's sources and a locator's types are: their
    /// addresses share their low bits (16-byte aligned) and mostly differ by small steps.
    private static func objects(_ count: Int) -> [Object] {
        (0..<count).map { _ in Object() }
    }

    @Test("Distinct identities hash apart for any seed, and one identity alike each time", arguments: [0, 1, -1, 0x5EED, Int.max])
    func hashesApart(seed: Int) {
        let objects = Self.objects(10_000)
        let keys = objects.map { IdentityKey(ObjectIdentifier($0)) }
        let hashes = keys.map { $0._rawHashValue(seed: seed) }
        #expect(Set(hashes).count == 10_000)
        #expect(keys.map { $0._rawHashValue(seed: seed) } == hashes)
        withExtendedLifetime(objects) {}
    }

    @Test("The low bits that pick a dictionary's bucket are spread as at random", arguments: [0, 0x5EED])
    func lowBitsSpread(seed: Int) {
        // 1,000 keys in 1,024 buckets fill about 638 of them at random (1,024 × (1 − e^−0.977));
        // an address taken as its own hash fills 64, its low four bits being always zero.
        let objects = Self.objects(1_000)
        let buckets = Set(objects.map { IdentityKey(ObjectIdentifier($0))._rawHashValue(seed: seed) & 1_023 })
        #expect(buckets.count > 580)
        withExtendedLifetime(objects) {}
    }

    @Test("A dictionary finds every value under its key, and none under another")
    func dictionaryRoundTrip() {
        let objects = Self.objects(10_000)
        var numbers: [IdentityKey: Int] = [:]
        for (number, object) in objects.enumerated() {
            numbers[IdentityKey(ObjectIdentifier(object))] = number
        }
        #expect(objects.enumerated().allSatisfy { numbers[IdentityKey(ObjectIdentifier($1))] == $0 })
        let other = Object()
        #expect(numbers[IdentityKey(ObjectIdentifier(other))] == nil)
        withExtendedLifetime(objects) {}
    }

    /// The hash a dictionary asks of a key, through `Hashable` as generic code calls it.
    private static func hashAsked<Key: Hashable>(of key: Key, seed: Int) -> Int {
        key._rawHashValue(seed: seed)
    }

    @Test("Dictionaries, sets and AnyHashable hash a key with its own mixing, not with Hasher")
    func collectionsUseTheMixing() {
        let key = IdentityKey(ObjectIdentifier(Object.self))
        var mixed = UInt64(UInt(bitPattern: ObjectIdentifier(Object.self))) ^ 0x5EED
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        #expect(Self.hashAsked(of: key, seed: 0x5EED) == Int(truncatingIfNeeded: mixed ^ (mixed >> 31)))
        #expect(key.hashValue == key._rawHashValue(seed: 0))
        #expect(AnyHashable(key).hashValue == key._rawHashValue(seed: 0))
    }

    @Test("Combined into a Hasher, a key is its identity")
    func hasherSeesTheIdentity() {
        let object = Object()
        let id = ObjectIdentifier(object)
        var ofKey = Hasher()
        IdentityKey(id).hash(into: &ofKey)
        var ofIdentity = Hasher()
        ofIdentity.combine(id)
        #expect(ofKey.finalize() == ofIdentity.finalize())
        #expect(IdentityKey(id) == IdentityKey(ObjectIdentifier(object)))
        #expect(IdentityKey(id) != IdentityKey(ObjectIdentifier(Object.self)))
    }
}
