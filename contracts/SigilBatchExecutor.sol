// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Sigil batch executor (the "Gas Station" delegate)
/// @notice An EOA delegates to this contract with EIP-7702; anyone (the EOA itself, or a sponsor
/// paying the gas) may then submit an ordered batch of calls that the EOA signed as an EIP-712
/// `BatchExecution` with a nonce and a deadline. The batch runs atomically: one failing call
/// reverts them all with `CallFailed(index, reason)`.
/// @dev Runs in the EOA's own storage, so its one variable lives at an ERC-7201 namespaced slot
/// that no other delegate is likely to use.
contract SigilBatchExecutor {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    /// @custom:storage-location erc7201:sigil.batchexecutor
    struct Layout {
        uint256 nonce;
    }

    // keccak256(abi.encode(uint256(keccak256("sigil.batchexecutor")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant LAYOUT_SLOT = 0xece33e34f7c4470278efbffe9457cde32314b673bccab8193f9ae8d2ffb32300;

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant CALL_TYPEHASH = keccak256("Call(address to,uint256 value,bytes data)");
    bytes32 private constant BATCH_TYPEHASH =
        keccak256("BatchExecution(Call[] calls,uint256 nonce,uint256 deadline)Call(address to,uint256 value,bytes data)");
    bytes32 private constant NAME_HASH = keccak256("Sigil Batch Executor");
    bytes32 private constant VERSION_HASH = keccak256("1");
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    error Expired(uint256 deadline);
    error BadSignature();
    error CallFailed(uint256 index, bytes reason);

    event BatchExecuted(uint256 indexed nonce, uint256 calls);

    function _layout() private pure returns (Layout storage l) {
        bytes32 slot = LAYOUT_SLOT;
        assembly {
            l.slot := slot
        }
    }

    /// @notice The nonce the next `BatchExecution` must carry.
    function nonce() external view returns (uint256) {
        return _layout().nonce;
    }

    /// @notice The EIP-712 domain separator (verifying contract: the delegated account itself).
    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice The EIP-712 digest the account signs for `calls` at `batchNonce` before `deadline`.
    function batchDigest(Call[] calldata calls, uint256 batchNonce, uint256 deadline) public view returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            hashes[i] = keccak256(abi.encode(CALL_TYPEHASH, calls[i].to, calls[i].value, keccak256(calls[i].data)));
        }
        bytes32 structHash = keccak256(abi.encode(BATCH_TYPEHASH, keccak256(abi.encodePacked(hashes)), batchNonce, deadline));
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), structHash));
    }

    /// @notice Runs `calls` in order as this account, once, if the account signed them.
    /// @param deadline Unix seconds after which the signature is no longer accepted.
    /// @param signature 65 bytes r ‖ s ‖ v over {batchDigest} at the current nonce.
    function execute(Call[] calldata calls, uint256 deadline, bytes calldata signature) external payable {
        if (block.timestamp > deadline) revert Expired(deadline);
        Layout storage l = _layout();
        uint256 current = l.nonce;
        if (_recover(batchDigest(calls, current, deadline), signature) != address(this)) revert BadSignature();
        l.nonce = current + 1;
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory reason) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, reason);
        }
        emit BatchExecuted(current, calls.length);
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// @notice A delegated account keeps receiving ether and tokens sent with receiver checks.
    receive() external payable {}

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x150b7a02 || id == 0x4e2312e0;
    }
}
