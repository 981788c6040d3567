/* Draftail entity for data references: a chooser modal (source) and an immutable token (decorator).
   Plain JS on Wagtail's globals (React, DraftJS, draftail, ModalWorkflow): no build step. */
(function () {
    'use strict';

    var React = window.React;
    var DraftJS = window.DraftJS;
    var draftail = window.draftail;
    var ATTRIBUTES = ['model', 'endpoint', 'source', 'metric', 'compare', 'other'];

    // Show only the fields that apply to the choices made so far.
    function setUpChooser(modal) {
        var body = modal.body.jquery ? modal.body[0] : modal.body;
        var form = body.querySelector('form.dataref-chooser');
        if (!form) {
            return;
        }
        function row(name) {
            return form.querySelector('[data-dataref-field="' + name + '"]');
        }
        function value(name) {
            var checked = form.querySelector('[name="' + name + '"]:checked');
            if (checked) {
                return checked.value;
            }
            var input = form.querySelector('select[name="' + name + '"]');
            return input ? input.value : '';
        }
        function refresh() {
            var subject = value('subject');
            var isPrice = value('metric').indexOf('price_') === 0;
            row('endpoint').hidden = subject !== 'endpoint';
            row('model').hidden = subject !== 'model';
            row('compare').hidden = isPrice;
            row('other').hidden = isPrice || value('compare') !== form.dataset.above;
        }
        form.addEventListener('change', refresh);
        refresh();
        modal.ajaxifyForm(form);
    }

    class DatarefSource extends React.Component {
        constructor(props) {
            super(props);
            this.onChosen = this.onChosen.bind(this);
            this.onHidden = this.onHidden.bind(this);
        }

        componentDidMount() {
            var props = this.props;
            var params = {};
            if (props.entity) {
                var data = props.entity.getData();
                ATTRIBUTES.forEach(function (name) {
                    if (data[name]) {
                        params[name] = data[name];
                    }
                });
            }
            var strings = props.entityType.strings || {};
            window.jQuery(document.body).on('hidden.bs.modal', this.onHidden);
            this.workflow = window.ModalWorkflow({
                url: props.entityType.chooserUrl,
                urlParams: params,
                onload: {
                    chooser: setUpChooser,
                    chosen: function (modal, jsonData) {
                        modal.respond('datarefChosen', jsonData.result);
                    },
                },
                responses: {datarefChosen: this.onChosen},
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
            content = content.createEntity(props.entityType.type, 'IMMUTABLE', data);
            var entityKey = content.getLastCreatedEntityKey();
            // Replaces the selection: selecting a typed figure and choosing its reference swaps it for the token.
            content = DraftJS.Modifier.replaceText(content, editorState.getSelection(), result.text, null, entityKey);
            this.workflow.close();
            props.onComplete(DraftJS.EditorState.push(editorState, content, 'insert-characters'));
        }

        onHidden(event) {
            event.preventDefault();
            this.props.onClose();
        }

        render() {
            return null;
        }
    }

    // Wagtail's icon sprite is on every admin page; TooltipEntity wants an element, not a name.
    var TABLE_ICON = React.createElement(
        'svg',
        {className: 'icon icon-table', 'aria-hidden': 'true'},
        React.createElement('use', {href: '#icon-table'})
    );

    function Dataref(props) {
        var data = props.contentState.getEntity(props.entityKey).getData();
        var token = React.createElement(
            'span',
            {className: 'dataref-token', 'data-dataref': '', title: data.label || ''},
            props.children
        );
        if (draftail.TooltipEntity && props.onEdit) {
            return React.createElement(draftail.TooltipEntity, {
                entityKey: props.entityKey,
                onEdit: props.onEdit,
                onRemove: props.onRemove,
                icon: TABLE_ICON,
                label: data.label || '',
                children: token,
            });
        }
        return React.createElement('span', {className: 'dataref-token', title: data.label || ''}, props.children);
    }

    draftail.registerPlugin({type: 'DATAREF', source: DatarefSource, decorator: Dataref}, 'entityTypes');
})();
