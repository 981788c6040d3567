/* Draftail entity for checked statements: a chooser modal (source) that wraps the selected words in
   a mutable entity carrying the conditions, and a decorator that shows them as checked.
   Plain JS on Wagtail's globals (React, DraftJS, draftail, ModalWorkflow): no build step. */
(function () {
    'use strict';

    var React = window.React;
    var DraftJS = window.DraftJS;
    var draftail = window.draftail;

    function setUpChooser(modal) {
        var body = modal.body.jquery ? modal.body[0] : modal.body;
        var form = body.querySelector('form.statement-chooser');
        if (form) {
            modal.ajaxifyForm(form);
        }
    }

    class StatementSource extends React.Component {
        constructor(props) {
            super(props);
            this.onChosen = this.onChosen.bind(this);
            this.onHidden = this.onHidden.bind(this);
        }

        componentDidMount() {
            var props = this.props;
            var params = {};
            if (props.entity && props.entity.getData().cond) {
                params.cond = props.entity.getData().cond;
            }
            var strings = props.entityType.strings || {};
            window.jQuery(document.body).on('hidden.bs.modal', this.onHidden);
            this.workflow = window.ModalWorkflow({
                url: props.entityType.chooserUrl,
                urlParams: params,
                onload: {
                    chooser: setUpChooser,
                    chosen: function (modal, jsonData) {
                        modal.respond('statementChosen', jsonData.result);
                    },
                },
                responses: {statementChosen: this.onChosen},
                onError: function () {
                    window.alert(strings.serverError || 'Server error');
                    props.onClose();
                },
            });
        }

        componentWillUnmount() {
            this.workflow = null;
            window.jQuery(document.body).off('hidden.bs.modal', this.onHidden);
        }

        onChosen(result) {
            var props = this.props;
            var editorState = props.editorState;
            var content = editorState.getCurrentContent();
            var data = Object.assign({}, result.data, {label: result.label});
            content = content.createEntity(props.entityType.type, 'MUTABLE', data);
            var entityKey = content.getLastCreatedEntityKey();
            var selection = editorState.getSelection();
            if (props.entity && props.entityKey) {
                // Editing the conditions of an existing statement: its words stay as they are.
                content = content.mergeEntityData(props.entityKey, data);
                this.workflow.close();
                props.onComplete(DraftJS.EditorState.push(editorState, content, 'apply-entity'));
                return;
            }
            content = DraftJS.Modifier.applyEntity(content, selection, entityKey);
            this.workflow.close();
            props.onComplete(DraftJS.EditorState.push(editorState, content, 'apply-entity'));
        }

        onHidden(event) {
            event.preventDefault();
            this.props.onClose();
        }

        render() {
            return null;
        }
    }

    var TICK_ICON = React.createElement(
        'svg',
        {className: 'icon icon-tick', 'aria-hidden': 'true'},
        React.createElement('use', {href: '#icon-tick'})
    );

    function Statement(props) {
        var data = props.contentState.getEntity(props.entityKey).getData();
        var words = React.createElement(
            'span',
            {className: 'statement-token', 'data-statement': '', title: data.label || ''},
            props.children
        );
        if (draftail.TooltipEntity && props.onEdit) {
            return React.createElement(draftail.TooltipEntity, {
                entityKey: props.entityKey,
                onEdit: props.onEdit,
                onRemove: props.onRemove,
                icon: TICK_ICON,
                label: data.label || '',
                children: words,
            });
        }
        return words;
    }

    draftail.registerPlugin({type: 'STATEMENT', source: StatementSource, decorator: Statement}, 'entityTypes');
})();
